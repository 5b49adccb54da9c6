package main

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// browser is a headless Chromium on PATH, or "".
func browser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// TestTracePageInBrowser opens the page of trace --stage all --html in a real browser
// (headless Chromium, where it is installed): the DOM after the page's script ran has
// the first contraction's redex and contractum marked, and the first row and its term
// current; the screenshot shows both marks in their colours (#ffd966, #b6e3b6) below the
// legend's. The
// program and its first contraction, by hand (TestTraceMarksRedex): under cbv, in
// (\x:Int. x * 2) ((\y:Int. y + 1) 3) the redex is the argument (\y:Int. y + 1) 3,
// its contractum 3 + 1; the run makes four contractions, so five rows with the end.
// Two browser runs, at once: a few seconds, not in -short mode.
func TestTracePageInBrowser(t *testing.T) {
	chromium := browser()
	if chromium == "" {
		t.Skip("no chromium, chromium-browser or google-chrome on PATH: the trace page is not tested in a browser")
	}
	if testing.Short() {
		t.Skip("a browser takes seconds to start: not in -short mode")
	}
	prog := write(t, "first.lam", `(\x:Int. x * 2) ((\y:Int. y + 1) 3)`)
	dir := t.TempDir()
	page := filepath.Join(dir, "trace.html")
	if _, stderr, code := runCmd("trace", "--stage", "all", "--html", page, prog); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := func(profile string, args ...string) ([]byte, error) {
		args = append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
			"--disable-background-networking", "--disable-component-update", "--disable-sync",
			"--user-data-dir=" + filepath.Join(dir, profile)}, args...)
		cmd := exec.CommandContext(ctx, chromium, append(args, "file://"+page)...)
		cmd.WaitDelay = 5 * time.Second
		return cmd.Output()
	}
	shot := filepath.Join(dir, "trace.png")
	var dom []byte
	var domErr, shotErr error
	var wg sync.WaitGroup
	wg.Go(func() { dom, domErr = run("dom", "--dump-dom") })
	wg.Go(func() { _, shotErr = run("shot", "--screenshot="+shot, "--window-size=1200,900") })
	wg.Wait()
	if domErr != nil || shotErr != nil {
		t.Fatalf("chromium: %v, %v", domErr, shotErr)
	}

	d := string(dom)
	for _, want := range []string{
		`<mark class="redex">(\y:Int. y + 1) 3</mark>`,
		`<mark class="contractum">3 + 1</mark>`,
		`<tr class="term current">`,
		`<tr class="step agree current" id="row0">`,
		`<span id="where">row 1 of 5</span>`,
		"<title>interderive trace: lambda, evaluation cbv",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("the DOM lacks %s", want)
		}
	}
	if t.Failed() {
		t.Logf("the DOM:\n%s", d)
	}

	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1200 || b.Dy() != 900 {
		t.Errorf("the screenshot is %v, want 1200×900", b)
	}
	for _, c := range []struct {
		name    string
		r, g, b uint32
	}{{"redex", 0xff, 0xd9, 0x66}, {"contractum", 0xb6, 0xe3, 0xb6}} {
		// The lines of pixels the colour is on come in bands, one a line of text
		// that has a mark (the glyphs thin it, but never leave a gap of 8 lines):
		// the legend's, and the first term's below it at least.
		bands, last := 0, -100
		b := img.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, _ := img.At(x, y).RGBA()
				if r>>8 == c.r && g>>8 == c.g && bl>>8 == c.b {
					if y-last > 8 {
						bands++
					}
					last = y
					break
				}
			}
		}
		if bands < 2 {
			t.Errorf("the screenshot has the %s's colour in %d bands, want the legend's and a term's", c.name, bands)
		}
	}
}
