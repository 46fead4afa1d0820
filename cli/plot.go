package cli

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strings"

	"github.com/simdrl/simdrl/internal/atomicfile"
	"github.com/simdrl/simdrl/trainer"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Levels are told apart by colour, marker and line style alike, so the
// plot reads in grey and for colour-blind readers too.
var (
	levelColors = []color.Color{
		color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}, color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
		color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}, color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
		color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff}, color.RGBA{R: 0x8c, G: 0x56, B: 0x4b, A: 0xff},
		color.RGBA{R: 0xe3, G: 0x77, B: 0xc2, A: 0xff}, color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff},
	}
	levelMarkers = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{},
		draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
	levelDashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)},
		{vg.Points(8), vg.Points(3), vg.Points(2), vg.Points(3)}}
)

// checkPlotName refuses a plot name that is not a PNG's (checked at start).
func checkPlotName(path string) error {
	if path != "" && !strings.EqualFold(filepath.Ext(path), ".png") {
		return fmt.Errorf("-plot: %s: the plot is a PNG; name the file *.png", path)
	}
	return nil
}

// writePlot draws the learning curves of a run, greedy solve rate (top) and
// mean reward (bottom) of each level against updates, into a PNG.
func writePlot(path string, rep *trainer.Report) error {
	if err := checkPlotName(path); err != nil {
		return err
	}
	if len(rep.Evaluations) == 0 {
		return fmt.Errorf("-plot: no evaluations to draw (set -eval-every)")
	}
	solve, err := curves(rep, "greedy solve rate (held out)", func(p trainer.EvalPoint) []float64 { return p.SolveRate })
	if err != nil {
		return fmt.Errorf("-plot: %v", err)
	}
	reward, err := curves(rep, "greedy mean reward", func(p trainer.EvalPoint) []float64 { return p.MeanReward })
	if err != nil {
		return fmt.Errorf("-plot: %v", err)
	}
	train, err := trainingCurve(rep)
	if err != nil {
		return fmt.Errorf("-plot: %v", err)
	}
	solve.Y.Min, solve.Y.Max = 0, 1.02
	solve.Title.Text = fmt.Sprintf("simdrl, task %s, %s recipe, seed %d", rep.Config.Task, rep.Config.Recipe, rep.Config.Seed)
	img := vgimg.New(8*vg.Inch, 10*vg.Inch)
	dc := draw.New(img)
	// The legends go in a column right of the data: inside, wherever they
	// sat, they covered curves (at 1.0 once solved, lower before).
	legend := max(legendWidth(solve, dc), legendWidth(reward, dc)) + vg.Points(8)
	for _, p := range []*plot.Plot{solve, reward} {
		p.Legend.Top, p.Legend.Left, p.Legend.XOffs = true, false, legend
	}
	tiles := draw.Tiles{Rows: 3, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: legend + vg.Points(24), PadY: vg.Points(12)}
	plots := [][]*plot.Plot{{solve}, {reward}, {train}}
	canvases := plot.Align(plots, tiles, dc)
	solve.Draw(canvases[0][0])
	reward.Draw(canvases[1][0])
	train.Draw(canvases[2][0])
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&png); err != nil {
		return fmt.Errorf("-plot: %v", err)
	}
	if err := atomicfile.Write(path, png.Bytes()); err != nil {
		return fmt.Errorf("-plot: %w", err)
	}
	return nil
}

// legendWidth is the width of p's legend.
func legendWidth(p *plot.Plot, c draw.Canvas) vg.Length {
	return p.Legend.Rectangle(c).Size().X
}

// curves draws one line per level through the evaluations, each point
// marked; an evaluation that did not play a level has no point for it.
func curves(rep *trainer.Report, ylabel string, pick func(trainer.EvalPoint) []float64) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = "update"
	p.Y.Label.Text = ylabel
	levels := len(pick(rep.Evaluations[0]))
	for s := 0; s < levels; s++ {
		var xy plotter.XYs
		for _, e := range rep.Evaluations {
			if y := pick(e)[s]; !math.IsNaN(y) { // NaN: the evaluation did not play the level
				xy = append(xy, plotter.XY{X: float64(e.Update), Y: y})
			}
		}
		if len(xy) == 0 {
			continue // never played: no line, and no legend entry for one
		}
		l, pts, err := plotter.NewLinePoints(xy)
		if err != nil {
			return nil, err
		}
		l.Color, pts.Color = levelColors[s%len(levelColors)], levelColors[s%len(levelColors)]
		l.Width = vg.Points(1.5)
		l.Dashes = levelDashes[s%len(levelDashes)]
		pts.Shape = levelMarkers[s%len(levelMarkers)]
		pts.Radius = vg.Points(3)
		p.Add(l, pts)
		name := fmt.Sprintf("level %d", s)
		if s < len(rep.Levels) && rep.Config.Task != "seed" {
			name = fmt.Sprintf("%d: %s", s, rep.Levels[s])
		}
		p.Legend.Add(name, l, pts)
	}
	p.Add(plotter.NewGrid())
	return p, nil
}

// trainingCurve is the batch's mean reward at every update.
func trainingCurve(rep *trainer.Report) (*plot.Plot, error) {
	p := plot.New()
	p.X.Label.Text = "update"
	p.Y.Label.Text = "training reward (batch mean, every update)"
	xy := make(plotter.XYs, len(rep.TrainReward))
	for i, r := range rep.TrainReward {
		xy[i].X, xy[i].Y = float64(rep.Updates-len(rep.TrainReward)+i+1), r
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		return nil, err
	}
	l.Width = vg.Points(0.8)
	p.Add(l, plotter.NewGrid())
	return p, nil
}
