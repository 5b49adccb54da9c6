package workbench

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParsePeerOutput(t *testing.T) {
	got, err := ParsePeerOutput("cast 6704 377 3.5\ncbv 12 blame l2 0.25\n")
	want := []PeerRun{
		{Model: "cast", Contractions: 6704, Answer: "377", Time: 3500 * time.Millisecond},
		{Model: "cbv", Contractions: 12, Answer: "blame l2", Time: 250 * time.Millisecond},
	}
	if err != nil || !cmp.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
	for _, bad := range []string{"", "cast 6704 3.5", "cast x 377 3.5", "cast 1 377 fast", "cast -1 377 1", "cast 1 377 -1"} {
		if _, err := ParsePeerOutput(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func TestPeerLines(t *testing.T) {
	tests := []struct {
		line string
		want map[string][]string
		err  string
	}{
		{"redex: 14", map[string][]string{"redex": {"14"}}, ""},
		{"redex: 14, 20, 14", map[string][]string{"redex": {"14", "20"}}, ""},
		{"redx: 14", nil, `unknown peer "redx"`},
		{"redex: 0", nil, `"0" is not a positive size`},
		{"redex 14", nil, "want -- peer NAME: SIZES"},
	}
	for _, tt := range tests {
		peers := map[string][]string{}
		err := parsePeerLine(tt.line, peers)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%q: error %v, want %q", tt.line, err, tt.err)
			}
			continue
		}
		if err != nil || !cmp.Equal(peers, tt.want) {
			t.Errorf("%q: %v, %v; want %v", tt.line, peers, err, tt.want)
		}
	}
	if _, err := PeerNamed("nope"); err == nil || !strings.Contains(err.Error(), "known: redex") {
		t.Errorf("PeerNamed: %v", err)
	}
}
