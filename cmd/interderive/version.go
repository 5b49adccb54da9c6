package main

import (
	"runtime/debug"
	"strings"
)

// version is the command's version, from the build information Go records in the
// binary: the module's version (a tag when built by go install ...@version,
// "(devel)" in a checkout), then the revision and time of the commit it was built
// from, and "modified" if the work tree had changes.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return versionOf(info)
}

// versionOf formats the version of a build.
func versionOf(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	var vcs []string
	if rev := settings["vcs.revision"]; rev != "" {
		vcs = append(vcs, settings["vcs"]+" revision "+rev)
	}
	if t := settings["vcs.time"]; t != "" {
		vcs = append(vcs, t)
	}
	if settings["vcs.modified"] == "true" {
		vcs = append(vcs, "modified")
	}
	if len(vcs) > 0 {
		v += " (" + strings.Join(vcs, ", ") + ")"
	}
	if info.GoVersion != "" {
		v += ", built with " + info.GoVersion
	}
	return v
}
