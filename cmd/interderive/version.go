package main

import (
	"runtime/debug"
	"strings"
)

// version is the command's version, from the build information Go records in the
// binary: the module's version, then the revision and time of the commit it was built
// from, and "modified" if the work tree had changes.
//
// The module is not published, so the command is built from a clone: go install
// ./cmd/interderive (or go build) in a git checkout records the commit (-buildvcs,
// on by default) and a pseudo-version made from it (v0.0.0-DATE-REVISION, +dirty for
// a modified tree); go run records neither, and the version is then "(devel)" with a
// note that says so, so that a missing revision is never mistaken for a release.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel) " + noRevision
	}
	return versionOf(info)
}

// noRevision is said of a build that recorded no VCS revision.
const noRevision = "(no revision recorded: go run does not stamp one; go install ./cmd/interderive in a clone does)"

// versionOf formats the version of a build: the module's version ("(devel)" when Go
// recorded none), the VCS revision, its time and whether the tree was modified, or
// noRevision, and the Go version it was built with.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		vcs := []string{rev}
		if system := settings["vcs"]; system != "" {
			vcs[0] = system + " revision " + rev
		} else {
			vcs[0] = "revision " + rev
		}
		if t := settings["vcs.time"]; t != "" {
			vcs = append(vcs, t)
		}
		if settings["vcs.modified"] == "true" {
			vcs = append(vcs, "modified")
		}
		v += " (" + strings.Join(vcs, ", ") + ")"
	} else {
		v += " " + noRevision
	}
	if info.GoVersion != "" {
		v += ", built with " + info.GoVersion
	}
	return v
}
