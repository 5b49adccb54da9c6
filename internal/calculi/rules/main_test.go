package rules_test

import (
	"testing"

	"github.com/interderive/interderive/internal/testenv"
)

func TestMain(m *testing.M) { testenv.Main(m) }
