package closures

import "github.com/interderive/interderive"

// envSteps holds a run to its time and memory budgets (interderive.Options.Timeout,
// Options.Memory) across its environment steps, which are not contractions: the fuel
// counter looks at its limits as it counts contractions, and does not see them. On a
// deeply nested term the calculus takes a number of environment steps quadratic in
// the depth before its first contraction (each decomposes from the root): 65,536
// levels take minutes.
type envSteps struct{ n int }

// envCheckEvery is how many environment steps pass between two looks at the limits.
const envCheckEvery = 256

// step counts one environment step of the run whose counter is fuel, and every
// envCheckEvery steps looks at its limits (a *interderive.TimeoutError or
// *interderive.MemoryError past them).
func (s *envSteps) step(fuel *interderive.Counter) error {
	if s.n++; s.n%envCheckEvery == 0 {
		return fuel.Check()
	}
	return nil
}
