package cli

import (
	"bytes"
	"fmt"
	"image/color"
	"slices"
	"strconv"

	"github.com/simdrl/simdrl/internal/atomicfile"
	"github.com/simdrl/simdrl/stats"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// The report's figures tell configurations apart as -plot tells levels
// apart (levelColors, levelDashes): colour and line style, each line in a
// translucent band of its 95% interval.

// writeProfiles draws each configuration's performance profile: the
// fraction of runs × levels whose final held-out solve rate exceeds tau.
// Above, tau from 0 to 1; below, the top profile, tau from near 1 to 1.
func writeProfiles(path string, s *seedSummary) error {
	var rows [][]*plot.Plot
	for k, pick := range []func(*configSummary) profile{
		func(c *configSummary) profile { return c.Profile },
		func(c *configSummary) profile { return c.TopProfile },
	} {
		p := plot.New()
		p.Title.Text = "near 1"
		if k == 0 {
			p.Title.Text = fmt.Sprintf("simdrl %s: performance profiles (final held-out solve rate, all levels; 95%% CI)", s.Task)
		}
		p.X.Label.Text = "tau (solve rate)"
		p.X.Tick.Marker = plainTicks{}
		p.Y.Label.Text = "fraction of runs × levels > tau"
		p.Y.Min, p.Y.Max = 0, 1.02
		for i, c := range s.Configurations {
			pr := pick(c)
			p.X.Min, p.X.Max = pr.Taus[0], 1
			if err := addBandLine(p, i, fmt.Sprintf("%s (%d runs)", c.Label, len(c.Seeds)), pr.Taus, pr.Fraction, pr.CI); err != nil {
				return err
			}
		}
		p.Add(plotter.NewGrid())
		rows = append(rows, []*plot.Plot{p})
	}
	return savePNG(path, rows, 9*vg.Inch, 8*vg.Inch)
}

// writeCurves draws, for each level, every configuration's learning curve:
// the IQM over its runs of the held-out solve rate at each evaluation.
func writeCurves(path string, s *seedSummary) error {
	var rows [][]*plot.Plot
	for l, level := range s.Levels {
		if !slices.ContainsFunc(s.Configurations, func(c *configSummary) bool { return l < len(c.Curves) && len(c.Curves[l].Updates) > 0 }) {
			continue // a level no evaluation played: no panel
		}
		p := plot.New()
		p.Title.Text = level
		if level != fmt.Sprintf("level %d", l) {
			p.Title.Text = fmt.Sprintf("level %d: %s", l, level)
		}
		if len(rows) == 0 {
			p.Title.Text = fmt.Sprintf("simdrl %s: IQM over seeds of the held-out solve rate, 95%% CI\n%s", s.Task, p.Title.Text)
		}
		p.X.Label.Text = "update"
		p.X.Tick.Marker = plainTicks{}
		p.Y.Label.Text = "solve rate"
		p.Y.Min, p.Y.Max = 0, 1.02
		for i, c := range s.Configurations {
			if l >= len(c.Curves) || len(c.Curves[l].Updates) == 0 {
				continue
			}
			cv := c.Curves[l]
			xs := make([]float64, len(cv.Updates))
			for j, u := range cv.Updates {
				xs[j] = float64(u)
			}
			if err := addBandLine(p, i, fmt.Sprintf("%s (%d runs)", c.Label, len(c.Seeds)), xs, cv.IQM, cv.CI); err != nil {
				return err
			}
		}
		p.Add(plotter.NewGrid())
		rows = append(rows, []*plot.Plot{p})
	}
	return savePNG(path, rows, 9*vg.Inch, vg.Length(len(rows))*2.6*vg.Inch+vg.Inch/2)
}

// addBandLine adds configuration i's line through ys and its band.
func addBandLine(p *plot.Plot, i int, name string, xs, ys []float64, ci []stats.Interval) error {
	col := levelColors[i%len(levelColors)]
	line := make(plotter.XYs, len(xs))
	band := make(plotter.XYs, 0, 2*len(xs))
	for j := range xs {
		line[j].X, line[j].Y = xs[j], ys[j]
		band = append(band, plotter.XY{X: xs[j], Y: ci[j].Lo})
	}
	for j := len(xs) - 1; j >= 0; j-- {
		band = append(band, plotter.XY{X: xs[j], Y: ci[j].Hi})
	}
	poly, err := plotter.NewPolygon(band)
	if err != nil {
		return err
	}
	r, g, b, _ := col.RGBA()
	poly.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x40}
	poly.LineStyle.Width = 0
	l, err := plotter.NewLine(line)
	if err != nil {
		return err
	}
	l.Color, l.Width, l.Dashes = col, vg.Points(1.8), levelDashes[i%len(levelDashes)]
	p.Add(poly, l)
	p.Legend.Add(name, l, poly)
	return nil
}

// plainTicks labels ticks as numbers are written (100, not 100.00).
type plainTicks struct{}

func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 10, 64) // 10 digits: 0.95, not 0.9500000000000001
		}
	}
	return ts
}

// savePNG lays plots out in a column and writes them as a PNG, each
// plot's legend in a column right of its data, as -plot places them:
// inside, it would cover curves wherever it sat.
func savePNG(path string, rows [][]*plot.Plot, w, h vg.Length) error {
	img := vgimg.New(w, h)
	dc := draw.New(img)
	legend := vg.Length(0)
	for _, row := range rows {
		legend = max(legend, legendWidth(row[0], dc)+vg.Points(8))
	}
	for _, row := range rows {
		row[0].Legend.Top, row[0].Legend.Left, row[0].Legend.XOffs = true, false, legend
	}
	tiles := draw.Tiles{Rows: len(rows), Cols: 1, PadTop: vg.Points(6), PadBottom: vg.Points(6), PadLeft: vg.Points(6), PadRight: legend + vg.Points(16), PadY: vg.Points(14)}
	canvases := plot.Align(rows, tiles, dc)
	for i, row := range rows {
		row[0].Draw(canvases[i][0])
	}
	var png bytes.Buffer
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(&png); err != nil {
		return err
	}
	return atomicfile.Write(path, png.Bytes())
}
