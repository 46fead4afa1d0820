package main

import (
	"bytes"
	"fmt"
	"image/color"
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

var stageColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
}

// checkPlotName refuses a plot name that is not a PNG's (checked at start).
func checkPlotName(path string) error {
	if path != "" && !strings.EqualFold(filepath.Ext(path), ".png") {
		return fmt.Errorf("-plot: %s: the plot is a PNG; name the file *.png", path)
	}
	return nil
}

// writePlot draws the learning curves of a run, greedy solve rate (top) and
// mean reward (bottom) of each stage against updates, into a PNG.
func writePlot(path string, rep *trainer.Report) error {
	if err := checkPlotName(path); err != nil {
		return err
	}
	if len(rep.Evaluations) == 0 {
		return fmt.Errorf("-plot: no evaluations to draw (set -eval-every)")
	}
	solve := curves(rep, "greedy solve rate", func(p trainer.EvalPoint) []float64 { return p.SolveRate })
	reward := curves(rep, "greedy mean reward", func(p trainer.EvalPoint) []float64 { return p.MeanReward })
	if solve == nil || reward == nil {
		return fmt.Errorf("-plot: could not build the curves")
	}
	solve.Y.Min, solve.Y.Max = 0, 1.02
	solve.Title.Text = fmt.Sprintf("simdrl %s recipe, seed %d", rep.Config.Recipe, rep.Config.Seed)
	img := vgimg.New(8*vg.Inch, 8*vg.Inch)
	dc := draw.New(img)
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(4), PadBottom: vg.Points(4), PadLeft: vg.Points(4), PadRight: vg.Points(8), PadY: vg.Points(12)}
	plots := [][]*plot.Plot{{solve}, {reward}}
	canvases := plot.Align(plots, tiles, dc)
	solve.Draw(canvases[0][0])
	reward.Draw(canvases[1][0])
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&png); err != nil {
		return err
	}
	return atomicfile.Write(path, png.Bytes())
}

func curves(rep *trainer.Report, ylabel string, pick func(trainer.EvalPoint) []float64) *plot.Plot {
	p := plot.New()
	p.X.Label.Text = "update"
	p.Y.Label.Text = ylabel
	p.Legend.Top, p.Legend.Left = false, false
	for s := 0; s < 3; s++ {
		xy := make(plotter.XYs, len(rep.Evaluations))
		for i, e := range rep.Evaluations {
			xy[i].X, xy[i].Y = float64(e.Update), pick(e)[s]
		}
		l, err := plotter.NewLine(xy)
		if err != nil {
			return nil
		}
		l.Color = stageColors[s]
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("stage %d", s), l)
	}
	p.Add(plotter.NewGrid())
	return p
}
