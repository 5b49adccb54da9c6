package compiled

import (
	"sync"

	"github.com/interderive/interderive"
	"github.com/interderive/interderive/sem"
)

// Cache is the compiled engine as the calculi that run rule files see it
// (sem.Compiled): it keeps the compiled stages of the rule files they run, by language,
// so that a file is built (if its plugin is not in Dir already) and loaded once per
// process, and a file that cannot be is refused once, with the same error for each
// program. The zero Cache keeps its plugins in CacheDir.
type Cache struct {
	Dir string // where the plugins are built ("": CacheDir)
	// Building, if not nil, is told of a build before it starts: the first run of a
	// rule file (or of an edited one) waits for it a few seconds.
	Building func(file, dir string)

	mu     sync.Mutex
	loaded map[*sem.Language]loaded
}

type loaded struct {
	s   *Semantics
	err error
}

// Load is the compiled stages of l, read from file, loaded once (Load).
func (c *Cache) Load(l *sem.Language, file string) (*Semantics, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if got, ok := c.loaded[l]; ok {
		return got.s, got.err
	}
	s, err := load(l, file, c.Dir, c.Building)
	if c.loaded == nil {
		c.loaded = map[*sem.Language]loaded{}
	}
	c.loaded[l] = loaded{s, err}
	return s, err
}

// StageOf is the compiled stage s of l, read from file (sem.Compiled).
func (c *Cache) StageOf(s interderive.Stage, l *sem.Language, file string) (sem.Stage, error) {
	cs, err := c.Load(l, file)
	if err != nil {
		return nil, err
	}
	return cs.Stage(s.Name())
}

// Runs is why the compiled engine does not run the stage s of l, read from file: it
// has no such stage, or it cannot run the file (Load's error: the file built and
// loaded here, once); nil where it runs it (sem.Compiled).
func (c *Cache) Runs(s interderive.Stage, l *sem.Language, file string) error {
	if err := runs(s.Name()); err != nil {
		return err
	}
	_, err := c.Load(l, file)
	return err
}
