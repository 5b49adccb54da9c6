// Package plot writes log-log line charts as self-contained SVG documents, using
// the standard library only. It is deliberately small: the benchmark command uses it
// to draw time against size, one line per stage.
//
// The output is deterministic (the same charts give the same bytes), so it can be
// compared against golden files.
package plot

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Point is one data point. Only points with finite, positive X and Y are drawn.
type Point struct{ X, Y float64 }

// A Series is one line of a chart: a name for the legend and its points, which need
// not be sorted.
type Series struct {
	Name   string
	Points []Point
}

// A Chart is a log-log line chart. If YLabel is "time", Y values are seconds and the
// Y axis is labelled with durations (1µs, 1ms, 1s, ...).
type Chart struct {
	Title, XLabel, YLabel string
	Series                []Series
}

// Panel geometry, in pixels. The frame is the rectangle [plotL, plotR]×[plotT, plotB];
// the data range maps onto the frame less inset on each side, so that markers at the
// extremes do not sit on the frame.
const (
	panelW, panelH = 480, 320
	plotL, plotR   = 72, panelW - 20
	plotT, plotB   = 32, panelH - 48
	inset          = 8

	maxTicks = 8 // at most this many decade ticks per axis; more are thinned
)

// palette is the Okabe–Ito colour-blind-safe palette, without its yellow (too pale
// on white) and with black last.
var palette = [...]string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"}

// WriteSVG writes charts as one SVG document, a grid of panels with cols panels per
// row; cols ≤ 0 means min(len(charts), 2), and cols is at most len(charts). With no
// charts it writes one empty panel.
func WriteSVG(w io.Writer, cols int, charts ...Chart) error {
	if len(charts) == 0 {
		charts = []Chart{{}}
	}
	if cols <= 0 {
		cols = 2
	}
	cols = min(cols, len(charts))
	rows := (len(charts) + cols - 1) / cols
	width, height := cols*panelW, rows*panelH

	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	for i := range charts {
		writePanel(&b, &charts[i], (i%cols)*panelW, (i/cols)*panelH)
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// An axis maps values onto pixels logarithmically: 10^lo ↦ p0 and 10^hi ↦ p1.
type axis struct {
	lo, hi float64 // log10 of the ends of the data range
	p0, p1 float64
}

// newAxis returns the axis for data values in [vmin, vmax] (both finite and
// positive). A range of one value is widened by a factor of 2 each way.
func newAxis(vmin, vmax, p0, p1 float64) axis {
	lo, hi := math.Log10(vmin), math.Log10(vmax)
	if hi-lo < 1e-9 {
		lo -= math.Log10(2)
		hi += math.Log10(2)
	}
	return axis{lo, hi, p0, p1}
}

func (a axis) pos(v float64) float64 {
	return a.p0 + (math.Log10(v)-a.lo)/(a.hi-a.lo)*(a.p1-a.p0)
}

// ticks returns the tick values of an axis spanning [10^lo, 10^hi]: the powers of ten
// in it (only every k-th decade if there would be more than maxTicks), and, when fewer
// than two powers of ten fall in it, also its ends, unless an end is too close to a
// power of ten for both labels to fit.
func ticks(lo, hi float64) []float64 {
	const eps = 1e-9
	e0, e1 := int(math.Ceil(lo-eps)), int(math.Floor(hi+eps))
	step := 1
	if n := e1 - e0 + 1; n > maxTicks {
		step = (n + maxTicks - 1) / maxTicks
	}
	var ts []float64
	for e := e0; e <= e1; e++ {
		if e%step == 0 {
			ts = append(ts, math.Pow10(e))
		}
	}
	if e1-e0+1 < 2 {
		near := func(l float64) bool {
			return e0 <= e1 && math.Abs(l-float64(e0)) < 0.1*(hi-lo)
		}
		if !near(lo) {
			ts = slices.Insert(ts, 0, math.Pow(10, lo))
		}
		if !near(hi) {
			ts = append(ts, math.Pow(10, hi))
		}
	}
	return slices.DeleteFunc(ts, func(v float64) bool { return !usable(v) })
}

// minorTicks returns the values 2..9 × 10^e in [10^lo, 10^hi], or none if the axis
// spans so many decades that they would clutter it.
func minorTicks(lo, hi float64) []float64 {
	if hi-lo > 6 {
		return nil
	}
	var ts []float64
	for e := int(math.Floor(lo)); e <= int(math.Ceil(hi)); e++ {
		for m := 2; m <= 9; m++ {
			if l := float64(e) + math.Log10(float64(m)); lo <= l && l <= hi {
				ts = append(ts, float64(m)*math.Pow10(e))
			}
		}
	}
	return ts
}

func usable(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// usablePoints returns the drawable points of s sorted by X, in a new slice.
func usablePoints(s Series) []Point {
	var ps []Point
	for _, p := range s.Points {
		if usable(p.X) && usable(p.Y) {
			ps = append(ps, p)
		}
	}
	slices.SortStableFunc(ps, func(a, b Point) int {
		switch {
		case a.X < b.X:
			return -1
		case a.X > b.X:
			return 1
		}
		return 0
	})
	return ps
}

func writePanel(b *bytes.Buffer, c *Chart, ox, oy int) {
	fmt.Fprintf(b, `<g transform="translate(%d,%d)">`+"\n", ox, oy)
	defer b.WriteString("</g>\n")

	const midX, midY = (plotL + plotR) / 2, (plotT + plotB) / 2
	if c.Title != "" {
		fmt.Fprintf(b, `<text x="%d" y="20" text-anchor="middle" font-size="13" font-weight="bold">%s</text>`+"\n", panelW/2, esc(c.Title))
	}
	if c.XLabel != "" {
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", midX, panelH-10, esc(c.XLabel))
	}
	if c.YLabel != "" {
		fmt.Fprintf(b, `<text transform="translate(14,%d) rotate(-90)" text-anchor="middle">%s</text>`+"\n", midY, esc(c.YLabel))
	}
	frame := func() {
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>`+"\n",
			plotL, plotT, plotR-plotL, plotB-plotT)
	}

	points := make([][]Point, len(c.Series))
	xmin, ymin := math.Inf(1), math.Inf(1)
	xmax, ymax := math.Inf(-1), math.Inf(-1)
	for i, s := range c.Series {
		points[i] = usablePoints(s)
		for _, p := range points[i] {
			xmin, xmax = min(xmin, p.X), max(xmax, p.X)
			ymin, ymax = min(ymin, p.Y), max(ymax, p.Y)
		}
	}
	if math.IsInf(xmin, 1) {
		frame()
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="middle" fill="#666">no data</text>`+"\n", midX, midY+4)
		return
	}
	xa := newAxis(xmin, xmax, plotL+inset, plotR-inset)
	ya := newAxis(ymin, ymax, plotB-inset, plotT+inset)
	xt, yt := ticks(xa.lo, xa.hi), ticks(ya.lo, ya.hi)
	ylabel := expLabel
	if c.YLabel == "time" {
		ylabel = timeLabel
	}

	// Grid: minor lines, then major lines at the ticks.
	vline := func(x float64, colour string) {
		fmt.Fprintf(b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="%s"/>`+"\n", f1(x), plotT, f1(x), plotB, colour)
	}
	hline := func(y float64, colour string) {
		fmt.Fprintf(b, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="%s"/>`+"\n", plotL, f1(y), plotR, f1(y), colour)
	}
	for _, v := range minorTicks(xa.lo, xa.hi) {
		vline(xa.pos(v), "#f0f0f0")
	}
	for _, v := range minorTicks(ya.lo, ya.hi) {
		hline(ya.pos(v), "#f0f0f0")
	}
	for _, v := range xt {
		vline(xa.pos(v), "#d8d8d8")
	}
	for _, v := range yt {
		hline(ya.pos(v), "#d8d8d8")
	}
	frame()
	for _, v := range xt {
		x := f1(xa.pos(v))
		fmt.Fprintf(b, `<line x1="%s" y1="%d" x2="%s" y2="%d" stroke="#444"/>`+"\n", x, plotB, x, plotB+4)
		fmt.Fprintf(b, `<text x="%s" y="%d" text-anchor="middle">%s</text>`+"\n", x, plotB+16, esc(siLabel(v)))
	}
	for _, v := range yt {
		y := ya.pos(v)
		fmt.Fprintf(b, `<line x1="%d" y1="%s" x2="%d" y2="%s" stroke="#444"/>`+"\n", plotL-4, f1(y), plotL, f1(y))
		fmt.Fprintf(b, `<text x="%d" y="%s" text-anchor="end">%s</text>`+"\n", plotL-6, f1(y+4), esc(ylabel(v)))
	}

	// Series: a polyline through two or more points, and a marker on each point.
	for i, ps := range points {
		colour := palette[i%len(palette)]
		if len(ps) >= 2 {
			fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="1.5" stroke-linejoin="round" points="`, colour)
			for j, p := range ps {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(f1(xa.pos(p.X)) + "," + f1(ya.pos(p.Y)))
			}
			b.WriteString(`"/>` + "\n")
		}
		for _, p := range ps {
			fmt.Fprintf(b, `<circle cx="%s" cy="%s" r="3" fill="%s"/>`+"\n", f1(xa.pos(p.X)), f1(ya.pos(p.Y)), colour)
		}
	}

	writeLegend(b, c.Series)
}

// writeLegend writes a box in the top left corner of the frame naming the series (those
// with a name), each beside a sample of its line.
func writeLegend(b *bytes.Buffer, series []Series) {
	const row = 16
	n, width := 0, 0
	for _, s := range series {
		if s.Name != "" {
			n++
			width = max(width, utf8.RuneCountInString(s.Name))
		}
	}
	if n == 0 {
		return
	}
	x0, y0 := plotL+inset, plotT+inset
	fmt.Fprintf(b, `<rect x="%d" y="%d" width="%s" height="%d" fill="white" fill-opacity="0.85" stroke="#ccc"/>`+"\n",
		x0, y0, f1(42+6.5*float64(width)), n*row+8)
	y := y0 + 4 + row/2
	for i, s := range series {
		if s.Name == "" {
			continue
		}
		fmt.Fprintf(b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="2"/>`+"\n",
			x0+8, y, x0+28, y, palette[i%len(palette)])
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", x0+34, y+4, esc(s.Name))
		y += row
	}
}

// f1 formats a pixel coordinate.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// esc escapes text for use as XML character data.
func esc(s string) string {
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(s)) // a strings.Builder does not fail
	return b.String()
}

// round3 rounds v to three significant digits.
func round3(v float64) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'e', 2, 64), 64)
	return r
}

// num formats v rounded to three significant digits, without an exponent.
func num(v float64) string { return strconv.FormatFloat(round3(v), 'f', -1, 64) }

type unit struct {
	scale  float64
	suffix string
}

var (
	siUnits   = []unit{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}, {1, ""}}
	timeUnits = []unit{{1, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}, {1e-12, "ps"}}
)

// scaled formats v to three significant digits in the first of units not larger than
// it, or in 1e3 style if it is smaller than them all.
func scaled(v float64, units []unit) string {
	v = round3(v)
	for _, u := range units {
		if v >= u.scale {
			return num(v/u.scale) + u.suffix
		}
	}
	return expLabel(v)
}

// siLabel formats v with an SI suffix: 0.5, 10, 100, 1k, 2.5k, 1M; very large and
// very small values in 1e3 style.
func siLabel(v float64) string {
	switch r := round3(v); {
	case r >= 1e15:
		return expLabel(v)
	case 1e-3 <= r && r < 1:
		return num(r)
	}
	return scaled(v, siUnits)
}

// timeLabel formats v seconds as a duration: 1µs, 10µs, 1ms, 1s, 10s.
func timeLabel(v float64) string {
	s := scaled(v, timeUnits)
	if v < 1e-12 {
		s += "s"
	}
	return s
}

// expLabel formats v in 1e3 style: 1e3, 2.5e-6, 1e0.
func expLabel(v float64) string {
	s := strconv.FormatFloat(round3(v), 'e', -1, 64)
	m, e, _ := strings.Cut(s, "e")
	n, _ := strconv.Atoi(e)
	return m + "e" + strconv.Itoa(n)
}
