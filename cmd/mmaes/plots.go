package main

import (
	"image/color"
	"math"
	"os"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
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

// floorZeros returns ys with the values ≤ 0 (which a logarithmic axis
// cannot show: a run that reaches f = 0) replaced by a floor a decade below
// the smallest positive value, and whether there were any.
func floorZeros(ys []float64) ([]float64, bool) {
	low := math.Inf(1)
	for _, y := range ys {
		if y > 0 {
			low = min(low, y)
		}
	}
	out, any := make([]float64, len(ys)), false
	for i, y := range ys {
		out[i] = y
		if y <= 0 && !math.IsInf(low, 1) {
			out[i], any = low/10, true
		}
	}
	return out, any
}

// seriesStyle gives the i-th series of a figure its colour, dash pattern,
// marker and width, so that series that overlap stay apart: the first
// solid and wide, the second dashed, the third dotted, and so on.
func seriesStyle(i int) (c color.Color, dashes []vg.Length, shape draw.GlyphDrawer, width vg.Length) {
	styles := [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(1.5), vg.Points(2.5)},
		{vg.Points(8), vg.Points(3), vg.Points(1.5), vg.Points(3)}}
	return plotutil.Color(i), styles[i%len(styles)], plotutil.Shape(i), vg.Points(2.2 - 0.4*float64(i%3))
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
	c, dashes, shape, width := seriesStyle(i)
	l.Color, s.Color = c, c
	l.Dashes, l.Width = dashes, width
	s.Shape, s.Radius = shape, vg.Points(3.5)
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

// saveGrid writes plots as a PNG grid of cols columns, each cell
// cellW × cellH, their axes aligned.
func saveGrid(path string, plots []*plot.Plot, cols int, cellW, cellH vg.Length) error {
	cols = min(cols, len(plots))
	rows := (len(plots) + cols - 1) / cols
	table := make([][]*plot.Plot, rows)
	for i := range table {
		table[i] = make([]*plot.Plot, cols)
	}
	for i, p := range plots {
		table[i/cols][i%cols] = p
	}
	img := vgimg.NewWith(vgimg.UseWH(vg.Length(cols)*cellW, vg.Length(rows)*cellH),
		vgimg.UseBackgroundColor(color.White))
	t := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(table, t, draw.New(img))
	for i := range table {
		for j, p := range table[i] {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
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
	fs, floored := floorZeros(fs)
	if floored {
		name += " (0 drawn at the floor)"
	}
	if err := addLine(p, 0, name, xs, fs); err != nil {
		return err
	}
	if err := addLine(p, 1, "largest coordinate std σ·‖A_i‖", xs, t.stdMax); err != nil {
		return err
	}
	return savePNG(p, path)
}

// countTicks label 4 to 8 round values of a linear count axis (such as
// evaluations): steps of 1, 2 or 5 times a power of ten, and minor ticks
// between them.
type countTicks struct{}

func (countTicks) Ticks(min, max float64) []plot.Tick {
	if !(max > min) {
		return plot.DefaultTicks{}.Ticks(min, max)
	}
	step := math.Pow(10, math.Floor(math.Log10(max-min)))
	for _, m := range []float64{0.1, 0.2, 0.5, 1} {
		if (max-min)/(step*m) <= 8 {
			step *= m
			break
		}
	}
	var ts []plot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		if m := v + step/2; m <= max {
			ts = append(ts, plot.Tick{Value: m})
		}
	}
	return ts
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
