package main

import (
	"encoding/json"
	"os"
	"testing"
)

const realdata = "../../../shared/realdata"

// TestRealdata runs replay in every format over the real transcripts kept
// beside the project (skipped when absent): nothing may fail, and the JSON
// total must equal what ccusage 20.0.24 reports for the same files.
func TestRealdata(t *testing.T) {
	if _, err := os.Stat(realdata); err != nil {
		t.Skip("no ../shared/realdata")
	}
	for _, f := range []string{"table", "markdown", "csv", "json"} {
		out, errOut, code := ctxlab(t, "", nil, "replay", "--format", f, "--top", "0", realdata)
		if code != exitOK {
			t.Fatalf("--format %s: exit %d\n%s", f, code, errOut)
		}
		if f != "json" {
			continue
		}
		var doc struct {
			Sessions []json.RawMessage
			Total    struct {
				Usage struct {
					Total struct {
						Input        int64 `json:"input"`
						CacheWrite5m int64 `json:"cache_write_5m"`
						CacheWrite1h int64 `json:"cache_write_1h"`
						CacheRead    int64 `json:"cache_read"`
						Output       int64 `json:"output"`
					}
				}
			}
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatal(err)
		}
		// ccusage 20.0.24 `claude session --json --offline` on the same folder.
		u := doc.Total.Usage.Total
		if len(doc.Sessions) != 12 || u.Input != 1005765 || u.Output != 607558 ||
			u.CacheWrite5m+u.CacheWrite1h != 6542212 || u.CacheRead != 149892579 {
			t.Errorf("sessions %d, total %+v; want 12 sessions, 1005765/607558/6542212/149892579", len(doc.Sessions), u)
		}
	}
}
