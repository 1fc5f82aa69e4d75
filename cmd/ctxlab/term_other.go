//go:build !unix

package main

import "os"

// terminalWidth is 0 where the terminal's size is not known: tables are
// then fitted to COLUMNS or table.DefaultWidth.
func terminalWidth(*os.File) int { return 0 }
