package plot

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// svgDoc is what the tests look at in a document: how many of each element it holds,
// the text of its <text> elements, and its attributes by element.
type svgDoc struct {
	count map[string]int
	texts []string
	attrs map[string][]map[string]string
}

// parse decodes every token of an SVG document, failing the test if it is not
// well-formed XML.
func parse(t *testing.T, data []byte) svgDoc {
	t.Helper()
	doc := svgDoc{count: map[string]int{}, attrs: map[string][]map[string]string{}}
	d := xml.NewDecoder(bytes.NewReader(data))
	var stack []string
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("output is not well-formed XML: %v\n%s", err, data)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			name := tok.Name.Local
			stack = append(stack, name)
			doc.count[name]++
			as := map[string]string{}
			for _, a := range tok.Attr {
				as[a.Name.Local] = a.Value
			}
			doc.attrs[name] = append(doc.attrs[name], as)
			if name == "text" {
				doc.texts = append(doc.texts, "")
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) > 0 && stack[len(stack)-1] == "text" {
				doc.texts[len(doc.texts)-1] += string(tok)
			}
		}
	}
	if len(stack) != 0 {
		t.Fatalf("unclosed elements %v", stack)
	}
	return doc
}

func render(t *testing.T, cols int, charts ...Chart) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSVG(&b, cols, charts...); err != nil {
		t.Fatalf("WriteSVG: %v", err)
	}
	return b.Bytes()
}

func pts(xy ...float64) []Point {
	var ps []Point
	for i := 0; i+1 < len(xy); i += 2 {
		ps = append(ps, Point{xy[i], xy[i+1]})
	}
	return ps
}

func TestWriteSVG(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	benchLike := Chart{
		Title: "sum", XLabel: "size", YLabel: "time",
		Series: []Series{
			{Name: "machine", Points: pts(10, 1e-6, 100, 1e-5, 1000, 1e-4, 10000, 1e-3)},
			{Name: "interp", Points: pts(10, 1e-5, 10000, 1)},
		},
	}
	tests := []struct {
		name      string
		cols      int
		charts    []Chart
		polylines int
		circles   int
		noData    int
		width     string
		height    string
		texts     []string // must all appear as <text> contents
	}{
		{
			name: "bench-like", charts: []Chart{benchLike},
			polylines: 2, circles: 6, width: "480", height: "320",
			texts: []string{"sum", "size", "time", "machine", "interp",
				"10", "100", "1k", "10k", "1µs", "10µs", "100µs", "1ms", "10ms", "100ms", "1s"},
		},
		{
			name: "invalid points skipped",
			charts: []Chart{{Series: []Series{{Name: "s", Points: pts(
				0, 1, -1, 1, nan, 1, 1, inf, 10, 0, 10, -5, 10, nan, -inf, 3,
				100, 2, 10, 1)}}}},
			polylines: 1, circles: 2, width: "480", height: "320",
		},
		{
			name:      "single point",
			charts:    []Chart{{Series: []Series{{Name: "one", Points: pts(1000, 0.5)}}}},
			polylines: 0, circles: 1, width: "480", height: "320",
			texts: []string{"one", "500", "1k", "2k", "2.5e-1", "1e0"}, // a sub-decade range: its ends are labelled
		},
		{
			name: "plain Y labels",
			charts: []Chart{{YLabel: "allocs", Series: []Series{
				{Name: "a", Points: pts(1, 1000, 1e6, 1e9)}}}},
			polylines: 1, circles: 2, width: "480", height: "320",
			texts: []string{"1", "1k", "1M", "1e3", "1e6", "1e9"},
		},
		{
			name: "one series without enough points",
			charts: []Chart{{Series: []Series{
				{Name: "a", Points: pts(1, 1, 2, 2, 4, 4)},
				{Name: "b", Points: pts(3, 3)},
				{Name: "c"},
			}}},
			polylines: 1, circles: 4, width: "480", height: "320",
			texts: []string{"a", "b", "c"},
		},
		{
			name: "extreme values",
			charts: []Chart{{Series: []Series{
				{Points: pts(math.SmallestNonzeroFloat64, math.MaxFloat64, math.MaxFloat64, math.SmallestNonzeroFloat64)},
				{Points: pts(math.MaxFloat64, math.MaxFloat64)},
			}}},
			polylines: 1, circles: 3, width: "480", height: "320",
		},
		{
			name: "empty chart", charts: []Chart{{Title: "empty"}},
			noData: 1, width: "480", height: "320", texts: []string{"empty", "no data"},
		},
		{
			name: "all points invalid",
			charts: []Chart{{Series: []Series{
				{Name: "bad", Points: pts(0, 0, nan, nan, inf, inf, -1, -1)},
				{Name: "none"},
			}}},
			noData: 1, width: "480", height: "320", texts: []string{"no data"},
		},
		{name: "no charts", noData: 1, width: "480", height: "320"},
		{
			name: "default grid", charts: []Chart{benchLike, {}, benchLike},
			polylines: 4, circles: 12, noData: 1, width: "960", height: "640",
		},
		{
			name: "one column", cols: 1, charts: []Chart{benchLike, benchLike},
			polylines: 4, circles: 12, width: "480", height: "640",
		},
		{
			name: "more columns than charts", cols: 5, charts: []Chart{benchLike, benchLike},
			polylines: 4, circles: 12, width: "960", height: "320",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := render(t, tt.cols, tt.charts...)
			doc := parse(t, out)
			if got := doc.count["polyline"]; got != tt.polylines {
				t.Errorf("%d polylines, want %d", got, tt.polylines)
			}
			if got := doc.count["circle"]; got != tt.circles {
				t.Errorf("%d markers, want %d", got, tt.circles)
			}
			if got := count(doc.texts, "no data"); got != tt.noData {
				t.Errorf("%d panels say no data, want %d", got, tt.noData)
			}
			svg := doc.attrs["svg"][0]
			if svg["width"] != tt.width || svg["height"] != tt.height {
				t.Errorf("size %s×%s, want %s×%s", svg["width"], svg["height"], tt.width, tt.height)
			}
			for _, want := range tt.texts {
				if !slices.Contains(doc.texts, want) {
					t.Errorf("no text %q among %q", want, doc.texts)
				}
			}
			for _, s := range []string{"NaN", "Inf"} {
				if bytes.Contains(out, []byte(s)) {
					t.Errorf("output contains %s:\n%s", s, out)
				}
			}
		})
	}
}

func count(ss []string, s string) int {
	n := 0
	for _, x := range ss {
		if x == s {
			n++
		}
	}
	return n
}

func TestLegendEscaped(t *testing.T) {
	const name = `a<b & "c"`
	out := render(t, 0, Chart{Title: "<t>", Series: []Series{{Name: name, Points: pts(1, 1, 10, 10)}}})
	if !bytes.Contains(out, []byte(`a&lt;b &amp; &#34;c&#34;`)) {
		t.Errorf("escaped name missing:\n%s", out)
	}
	if bytes.Contains(out, []byte(name)) || bytes.Contains(out, []byte("<t>")) {
		t.Errorf("unescaped text in output:\n%s", out)
	}
	doc := parse(t, out)
	if !slices.Contains(doc.texts, name) {
		t.Errorf("legend texts %q lack %q", doc.texts, name)
	}
}

func TestTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64 // the data range
		want   []string
	}{
		{10, 10000, []string{"10", "100", "1k", "10k"}},
		{5, 2e6, []string{"10", "100", "1k", "10k", "100k", "1M"}},
		{2, 8, []string{"2", "8"}},                                       // no power of ten: the ends
		{5, 20, []string{"5", "10", "20"}},                               // less than a decade: the ends too
		{20, 300, []string{"20", "100", "300"}},                          // one power of ten: the ends too
		{9.8, 50, []string{"10", "50"}},                                  // 9.8 is too close to 10 to label
		{1, 1e20, []string{"1", "1k", "1M", "1G", "1T", "1e15", "1e18"}}, // thinned
	}
	for _, tt := range tests {
		var got []string
		for _, v := range ticks(math.Log10(tt.lo), math.Log10(tt.hi)) {
			got = append(got, siLabel(v))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("ticks(%g..%g) = %q, want %q", tt.lo, tt.hi, got, tt.want)
		}
	}
}

func TestLabels(t *testing.T) {
	tests := []struct {
		f    func(float64) string
		name string
		v    float64
		want string
	}{
		{timeLabel, "time", 1e-9, "1ns"},
		{timeLabel, "time", 1e-6, "1µs"},
		{timeLabel, "time", 1e-5, "10µs"},
		{timeLabel, "time", 1e-4, "100µs"},
		{timeLabel, "time", 1e-3, "1ms"},
		{timeLabel, "time", 1e-2, "10ms"},
		{timeLabel, "time", 1e-1, "100ms"},
		{timeLabel, "time", 1, "1s"},
		{timeLabel, "time", 10, "10s"},
		{timeLabel, "time", 2.5e-3, "2.5ms"},
		{timeLabel, "time", 0.0009999, "1ms"},
		{timeLabel, "time", 1e-15, "1e-15s"},
		{siLabel, "si", 1, "1"},
		{siLabel, "si", 10, "10"},
		{siLabel, "si", 100, "100"},
		{siLabel, "si", 1000, "1k"},
		{siLabel, "si", 10000, "10k"},
		{siLabel, "si", 1e6, "1M"},
		{siLabel, "si", 2500, "2.5k"},
		{siLabel, "si", 999999, "1M"},
		{siLabel, "si", 0.5, "0.5"},
		{siLabel, "si", 1e-4, "1e-4"},
		{siLabel, "si", 1e15, "1e15"},
		{expLabel, "exp", 1000, "1e3"},
		{expLabel, "exp", 1, "1e0"},
		{expLabel, "exp", 0.001, "1e-3"},
		{expLabel, "exp", 2.5e-6, "2.5e-6"},
		{expLabel, "exp", 12345, "1.23e4"},
	}
	for _, tt := range tests {
		if got := tt.f(tt.v); got != tt.want {
			t.Errorf("%sLabel(%g) = %q, want %q", tt.name, tt.v, got, tt.want)
		}
	}
}

// TestPointPosition checks where a point is drawn against the axis mapping worked out
// by hand.
//
// The frame spans x ∈ [72, 460] and y ∈ [32, 272] in the panel; the data range maps
// onto it less an inset of 8 pixels on each side, so onto x ∈ [80, 452] (372 px wide)
// and, upwards, y ∈ [264, 40] (224 px high).
//
// The chart's X values run from 10 to 10⁴, that is log₁₀ x ∈ [1, 4]; its Y values from
// 10⁻⁴ to 1, log₁₀ y ∈ [-4, 0]. The point (1000, 0.001) has log₁₀ x = 3, two thirds of
// the way along, and log₁₀ y = -3, one quarter of the way up:
//
//	x = 80 + (3-1)/(4-1) · 372 = 80 + 248 = 328
//	y = 264 - (-3-(-4))/(0-(-4)) · 224 = 264 - 56 = 208
//
// (An axis drawn the wrong way round would put it at x = 204 or y = 96.)
func TestPointPosition(t *testing.T) {
	c := Chart{YLabel: "time", Series: []Series{{Name: "s", Points: pts(10, 1e-4, 1e4, 1, 1000, 0.001)}}}
	doc := parse(t, render(t, 0, c))
	found := false
	for _, a := range doc.attrs["circle"] {
		if a["cx"] == "328.0" && a["cy"] == "208.0" {
			found = true
		}
	}
	if !found {
		t.Errorf("no marker at (328, 208): %v", doc.attrs["circle"])
	}

	// The same point in the fourth panel of a two-column grid is offset by one panel
	// each way.
	doc = parse(t, render(t, 2, Chart{}, Chart{}, Chart{}, c))
	if got := doc.attrs["g"][3]["transform"]; got != "translate(480,320)" {
		t.Errorf("fourth panel at %q, want translate(480,320)", got)
	}
}

func TestPointsSorted(t *testing.T) {
	in := pts(1000, 3, 10, 1, 100, 2, 1e4, 4)
	orig := slices.Clone(in)
	doc := parse(t, render(t, 0, Chart{Series: []Series{{Points: in}}}))
	if !slices.Equal(in, orig) {
		t.Errorf("WriteSVG changed its input: %v", in)
	}
	var xs []float64
	for _, p := range strings.Fields(doc.attrs["polyline"][0]["points"]) {
		x, _, _ := strings.Cut(p, ",")
		v, err := strconv.ParseFloat(x, 64)
		if err != nil {
			t.Fatal(err)
		}
		xs = append(xs, v)
	}
	if len(xs) != 4 || !slices.IsSorted(xs) {
		t.Errorf("polyline x coordinates %v, want 4 increasing", xs)
	}
}

func TestDeterministic(t *testing.T) {
	charts := func() []Chart {
		var cs []Chart
		for i := range 3 {
			var ss []Series
			for j := range 9 { // more series than colours
				ss = append(ss, Series{Name: "stage " + strconv.Itoa(j),
					Points: pts(10, float64(i+j+1)*1e-6, 1000, float64(i+j+1)*1e-4, 100, float64(i+j+1)*1e-5)})
			}
			cs = append(cs, Chart{Title: "p" + strconv.Itoa(i), XLabel: "size", YLabel: "time", Series: ss})
		}
		return cs
	}
	a, b := render(t, 0, charts()...), render(t, 0, charts()...)
	if !bytes.Equal(a, b) {
		t.Errorf("two calls gave different output")
	}
	parse(t, a)
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteError(t *testing.T) {
	if err := WriteSVG(failWriter{}, 0, Chart{}); err == nil {
		t.Error("WriteSVG to a failing writer returned nil")
	}
}
