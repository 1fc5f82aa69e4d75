package batch

import (
	"fmt"
	"os"

	"github.com/ctxlab/ctxlab/accounting"
	"github.com/ctxlab/ctxlab/accounting/prices"
)

// Config is the accounting configuration, with the price table of the
// file at pricesFile laid over the built-in one ("": none). Its errors
// name the flag (--prices).
func Config(pricesFile string) (accounting.Config, error) {
	cfg := accounting.DefaultConfig()
	if pricesFile == "" {
		return cfg, nil
	}
	f, err := os.Open(pricesFile)
	if err != nil {
		return cfg, fmt.Errorf("--prices: %v", err)
	}
	defer f.Close()
	p, err := prices.Read(f, cfg.Prices)
	if err != nil {
		return cfg, fmt.Errorf("--prices %s: %v", pricesFile, err)
	}
	cfg.Prices = p
	return cfg, nil
}
