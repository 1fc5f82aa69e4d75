package numtext

import (
	"math"
	"testing"
)

func TestInt(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {-1000, "-1,000"},
		{123456, "123,456"}, {1234567, "1,234,567"}, {-987654321, "-987,654,321"},
		{math.MaxInt64, "9,223,372,036,854,775,807"}, {math.MinInt64, "-9,223,372,036,854,775,808"},
	} {
		if got := Int(c.n); got != c.want {
			t.Errorf("Int(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestFloat(t *testing.T) {
	for _, c := range []struct {
		v    float64
		dec  int
		want string
	}{
		{1234567.5, 1, "1,234,567.5"}, {0.25, 2, "0.25"}, {999.96, 1, "1,000.0"},
		{-1234.5, 0, "-1,234"}, {-1234.5, 1, "-1,234.5"}, {167000, 0, "167,000"}, {-0.004, 2, "0.00"}, {-0.5, 1, "-0.5"}, {12, 0, "12"},
	} {
		if got := Float(c.v, c.dec); got != c.want {
			t.Errorf("Float(%v, %d) = %q, want %q", c.v, c.dec, got, c.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{
		{0, "0 calls"}, {1, "1 call"}, {2, "2 calls"}, {2048, "2,048 calls"},
	} {
		if got := Count(c.n, "call", "calls"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestUSD(t *testing.T) {
	for _, c := range []struct {
		x   float64
		usd string
	}{
		{0, "$0.00"},
		{1.5, "$1.50"},
		{1234.567, "$1,234.57"},
		{0.0042, "$0.0042"},
		{0.01, "$0.01"},
		{0.0099999, "$0.0100"},
		{-0.0042, "-$0.0042"},
		{-2, "-$2.00"},
		{-1234567.891, "-$1,234,567.89"},
		{1.495029, "$1.50"},
	} {
		if got := USD(c.x); got != c.usd {
			t.Errorf("USD(%v) = %q, want %q", c.x, got, c.usd)
		}
	}
	if got := Pct(12.345); got != "12.3%" {
		t.Errorf("Pct = %q", got)
	}
}

func TestPValue(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want string
	}{{1, "1.000"}, {0.0390625, "0.039"}, {0.0015, "0.002"}, {0.001, "0.001"}, {0.000999, "<0.001"}, {2e-6, "<0.001"}} {
		if got := PValue(c.p); got != c.want {
			t.Errorf("PValue(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}

// TestShortID: a UUID is quoted by its first 8 characters; any other id
// (a file's own name, an agent's) whole, since its first 8 may be all
// that several ids share ("general-", "agent-ac").
func TestShortID(t *testing.T) {
	for in, want := range map[string]string{
		"d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6a7":  "d3e4f5a6",
		"D3E4F5A6-B7C8-4D9E-A0F1-B2C3D4E5F6A7":  "D3E4F5A6",
		"d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6ag":  "d3e4f5a6-b7c8-4d9e-a0f1-b2c3d4e5f6ag",
		"d3e4f5a6b7c8-4d9e-a0f1-b2c3d4e5f6a7-":  "d3e4f5a6b7c8-4d9e-a0f1-b2c3d4e5f6a7-",
		"general-tool-calls-with-comment-lines": "general-tool-calls-with-comment-lines",
		"agent-acompact-fa0be5":                 "agent-acompact-fa0be5",
		"a8e99a7c-converted":                    "a8e99a7c-converted",
		"main":                                  "main",
	} {
		if got := ShortID(in); got != want {
			t.Errorf("ShortID(%q) = %q, want %q", in, got, want)
		}
	}
}
