//go:build !unix

package driver

import "os/exec"

// peakRSS is not available here: the space target needs getrusage.
func peakRSS(*exec.Cmd) (uint64, error) { return 0, errNoRSS }
