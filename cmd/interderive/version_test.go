package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionOf: the version line of builds as Go records them. The expected lines
// are written from the BuildInfo values by hand: the module's version, the revision
// (its VCS named), the commit's time, "modified" for a dirty tree, the Go version;
// a build with no revision (go run, -buildvcs=false) says that none was recorded.
func TestVersionOf(t *testing.T) {
	module := func(v string) debug.Module {
		return debug.Module{Path: "github.com/interderive/interderive", Version: v}
	}
	vcs := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i+1 < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"a tag, modified", &debug.BuildInfo{GoVersion: "go1.26.0", Main: module("v0.3.0"),
			Settings: vcs("vcs", "git", "vcs.revision", "a15ed99", "vcs.time", "2026-01-02T03:04:05Z", "vcs.modified", "true")},
			"v0.3.0 (git revision a15ed99, 2026-01-02T03:04:05Z, modified), built with go1.26.0"},
		{"go install in a clean clone", &debug.BuildInfo{GoVersion: "go1.26.8", Main: module("v0.0.0-20261205064555-00dedfacebe3"),
			Settings: vcs("-buildmode", "exe", "vcs", "git", "vcs.revision", "00dedfacebe37c940645cf98be366e3ec3f979eb", "vcs.time", "2026-12-05T06:45:55Z", "vcs.modified", "false")},
			"v0.0.0-20261205064555-00dedfacebe3 (git revision 00dedfacebe37c940645cf98be366e3ec3f979eb, 2026-12-05T06:45:55Z), built with go1.26.8"},
		{"a revision without time or system", &debug.BuildInfo{Main: module("(devel)"), Settings: vcs("vcs.revision", "abc")},
			"(devel) (revision abc)"},
		{"go run", &debug.BuildInfo{GoVersion: "go1.26.8", Main: module("(devel)"), Settings: vcs("-buildmode", "exe", "CGO_ENABLED", "1")},
			"(devel) " + noRevision + ", built with go1.26.8"},
		{"nothing recorded", &debug.BuildInfo{}, "(devel) " + noRevision},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := versionOf(tt.info); got != tt.want {
				t.Errorf("versionOf:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
	if !strings.Contains(noRevision, "go install ./cmd/interderive") {
		t.Errorf("the note on a build with no revision names no command that records one: %q", noRevision)
	}
}

// TestVersion: --version prints one line, "interderive " and this binary's version.
func TestVersion(t *testing.T) {
	stdout, _, code := runCmd("--version")
	if want := "interderive " + version() + "\n"; code != 0 || stdout != want {
		t.Errorf("--version: exit %d, %q; want exit 0, %q", code, stdout, want)
	}
}
