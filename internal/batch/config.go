package batch

import (
	"bytes"
	"fmt"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
	"github.com/ctxlab/ctxlab/internal/cliflag"
)

// Config is the accounting configuration, with the price table of the
// file at pricesFile laid over the built-in one ("": none). Its errors
// name the flag (--prices).
func Config(pricesFile string) (accounting.Config, error) {
	cfg := accounting.DefaultConfig()
	if pricesFile == "" {
		return cfg, nil
	}
	data, err := cliflag.ReadFile("--prices", pricesFile)
	if err != nil {
		return cfg, err
	}
	p, err := prices.Read(bytes.NewReader(data), cfg.Prices)
	if err != nil {
		return cfg, fmt.Errorf("--prices %s: %v", pricesFile, err)
	}
	cfg.Prices = p
	return cfg, nil
}
