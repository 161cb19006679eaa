package main

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Figures are drawn with gonum's plot package; these helpers hold the
// choices every figure shares.

// figureSize is the size of every PNG.
const (
	figureWidth  = 7 * vg.Inch
	figureHeight = 4.5 * vg.Inch
)

// newLogPlot returns a plot with a logarithmic y axis.
func newLogPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = logTicks{}
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// logPoints returns the points (xs[i], ys[i]) with ys[i] > 0 and finite:
// a logarithmic axis shows nothing else.
func logPoints(xs, ys []float64) plotter.XYs {
	var pts plotter.XYs
	for j := range xs {
		if ys[j] > 0 && !math.IsInf(ys[j], 0) && !math.IsNaN(ys[j]) {
			pts = append(pts, plotter.XY{X: xs[j], Y: ys[j]})
		}
	}
	return pts
}

// addLine adds the points of logPoints as a line in the i-th plot colour.
func addLine(p *plot.Plot, i int, name string, xs, ys []float64) error {
	pts := logPoints(xs, ys)
	if len(pts) == 0 {
		return nil
	}
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color = plotutil.Color(i)
	l.Dashes = plotutil.Dashes(i / 7)
	l.Width = vg.Points(1.2)
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

// addLinePoints adds the points of logPoints as markers with a line
// through them.
func addLinePoints(p *plot.Plot, i int, name string, xs, ys []float64) error {
	pts := logPoints(xs, ys)
	if len(pts) == 0 {
		return nil
	}
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	l.Color, s.Color = plotutil.Color(i), plotutil.Color(i)
	s.Shape = plotutil.Shape(i)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// savePNG writes p as a PNG of the standard size.
func savePNG(p *plot.Plot, path string) error {
	return p.Save(figureWidth, figureHeight, path)
}

// plotRun draws best f (|f| if the values are negative, as on the parabolic
// ridge) and σ of one run against the evaluations.
func plotRun(path, title string, t trace) error {
	p := newLogPlot(title, "function evaluations", "value")
	xs := make([]float64, len(t.evals))
	fs := make([]float64, len(t.evals))
	negative := false
	for i := range t.evals {
		xs[i] = float64(t.evals[i])
		fs[i] = t.bestF[i]
		if fs[i] < 0 {
			negative = true
		}
	}
	name := "best f"
	if negative {
		name = "|best f|"
		for i := range fs {
			fs[i] = math.Abs(fs[i])
		}
	}
	if err := addLine(p, 0, name, xs, fs); err != nil {
		return err
	}
	if err := addLine(p, 1, "σ", xs, t.sigma); err != nil {
		return err
	}
	return savePNG(p, path)
}

// logTicks are plot.LogTicks labelled as 1e-05 rather than 9.99…e-06.
type logTicks struct{}

func (logTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 2, 64)
		}
	}
	return ts
}
