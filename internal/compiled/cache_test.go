package compiled

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/interderive/interderive/internal/testenv"
	"github.com/interderive/interderive/sem"
)

// TestPrune: a build removes the plugins no run has loaded for unusedFor, and keeps
// the others.
func TestPrune(t *testing.T) {
	dir := t.TempDir()
	old, fresh := filepath.Join(dir, "old"), filepath.Join(dir, "fresh")
	for _, d := range []string{old, fresh} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-unusedFor - time.Hour)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	prune(dir, time.Now().Add(-unusedFor))
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("a plugin unused for %v is kept (%v)", unusedFor, err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a plugin in use is removed: %v", err)
	}
}

// buildNote is a rule file of its own (its own digest, so that no other test has
// loaded its plugin): a counter that counts down.
const buildNote = `(language buildnote)
(sort t (integer n) (con down t))
(kind E v)
(value E n)
(frame E (down (hole)))
(rule tick E (down n) (down (prim sub n 1)) (where (prim gt n 0)))
(rule zero E (down 0) 0)
`

// TestBuilding: a Cache tells of a build before it starts, once, and not of a
// load of what is built already; each load marks the plugin used.
func TestBuilding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a plugin (a few seconds); go test without -short runs it")
	}
	testenv.NeedCompiledEngine(t)
	l, err := sem.Load([]byte(buildNote))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var told []string
	note := func(file, d string) { told = append(told, file+" in "+d) }
	c := &Cache{Dir: dir, Building: note}
	if _, err := c.Load(l, "buildnote.sem"); err != nil {
		t.Fatal(err)
	}
	if want := "buildnote.sem in " + dir; len(told) != 1 || told[0] != want {
		t.Fatalf("building told %q, want once %q", told, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the plugins' directory holds %d entries, want 1", len(entries))
	}
	pkg := filepath.Join(dir, entries[0].Name())
	then := time.Now().Add(-time.Hour)
	if err := os.Chtimes(pkg, then, then); err != nil {
		t.Fatal(err)
	}
	// Another process (a Cache of its own) loads what is built: nothing to tell.
	if _, err := (&Cache{Dir: dir, Building: note}).Load(l, "buildnote.sem"); err != nil {
		t.Fatal(err)
	}
	if len(told) != 1 {
		t.Errorf("building told %q of a load of a built plugin", told)
	}
	if info, err := os.Stat(pkg); err != nil || !info.ModTime().After(then) {
		t.Errorf("a load does not mark the plugin used (%v)", err)
	}
}
