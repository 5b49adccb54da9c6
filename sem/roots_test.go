package sem

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRootAnswer checks the root tables against hand readings of ed.sem's values
// (E's: s | (crc w s), with s = n | true | false | (lam x e)) and classes.
func TestRootAnswer(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "gradual", "rules", "ed.sem"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	con := func(name string) *Con { return mustCon(t, l, name) }
	class := func(name string) *Class {
		for _, c := range l.Classes {
			if c.Name == name {
				return c
			}
		}
		t.Fatalf("no class %s", name)
		return nil
	}
	E, ok := l.Kind("E")
	if !ok {
		t.Fatal("no kind E")
	}
	tests := []struct {
		what string
		got  RootAnswer
		want RootAnswer
	}{
		{"E: an integer (n in s)", E.RootAnswer(TermInt, nil), Yes},
		{"E: (lam x e), its body untested", E.RootAnswer(TermCon, con("lam")), Yes},
		{"E: (true)", E.RootAnswer(TermCon, con("true")), Yes},
		{"E: (crc w s), its children tested", E.RootAnswer(TermCon, con("crc")), Depends},
		{"E: (sub e e), no value's root", E.RootAnswer(TermCon, con("sub")), No},
		{"E: a variable", E.RootAnswer(TermVar, nil), No},
		{"class s: (crc ...)", class("s").RootAnswer(TermCon, con("crc")), No},
		{"class w: (inj T), T untested", class("w").RootAnswer(TermCon, con("inj")), Yes},
		{"class w: (arrow np np), np tested", class("w").RootAnswer(TermCon, con("arrow")), Depends},
		{"class B: (Int)", class("B").RootAnswer(TermCon, con("Int")), Yes},
		{"class B: (Dyn)", class("B").RootAnswer(TermCon, con("Dyn")), No},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: %d, want %d", tt.what, tt.got, tt.want)
		}
	}
}
