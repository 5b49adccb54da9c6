package workbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPeerSession: a script of a peer, run under sh, is timed at the caller's request
// a round at a time (its rounds answer 0.25 ms and 0.5 ms, as the script writes), its
// first lines before the run's skipped; a script that ends without answering is an
// error that says what it printed on standard error.
func TestPeerSession(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "peer.sh")
	err := os.WriteFile(script, []byte(`echo "a model's own tests"
echo "redex 3 3 0"
n=0
while read ms; do
  n=$((n+1))
  echo "time 0.000$((n*25))"
done
echo "refused" >&2
exit 3
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	p := Peer{Name: "sh", Runtime: "sh"}
	s, err := p.StartScript(script, 10*time.Second)
	if err != nil {
		t.Skipf("sh: %v", err)
	}
	defer s.Close()
	if line, err := s.Line("redex "); err != nil || line != "redex 3 3 0" {
		t.Fatalf("first line %q, %v", line, err)
	}
	for _, want := range []time.Duration{250 * time.Microsecond, 500 * time.Microsecond} {
		if got, err := s.Time(time.Millisecond); err != nil || got != want {
			t.Errorf("a round: %v, %v; want %v", got, err, want)
		}
	}
	if err := s.Close(); err == nil {
		t.Errorf("a script that exits 3: no error")
	}

	bad := filepath.Join(dir, "bad.sh")
	if err := os.WriteFile(bad, []byte("echo 'no model here' >&2\nexit 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = p.StartScript(bad, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Line("redex "); err == nil || !strings.Contains(err.Error(), "no model here") {
		t.Errorf("a script that ends at once: %v", err)
	}
}
