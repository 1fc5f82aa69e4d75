package simulate

import "github.com/ctxlab/ctxlab/simulate/restore"

// restore is what the restoration after a compaction reads of cfg.
func (cfg *Config) restore() restore.Config {
	return restore.Config{
		RestoreFiles: cfg.RestoreFiles, RestoreFileTokens: cfg.RestoreFileTokens,
		RestoreFileTokensOld: cfg.RestoreFileTokensOld, RestoreTotalTokens: cfg.RestoreTotalTokens,
		RestoreWrittenFrom: cfg.RestoreWrittenFrom, RestoreReferenceFrom: cfg.RestoreReferenceFrom,
		RestoreSeedFrom: cfg.RestoreSeedFrom, SharedFilesUntil: cfg.SharedFilesUntil,
		PlanFileFrom: cfg.PlanFileFrom, RestoreEstimateFrom: cfg.RestoreEstimateFrom,
	}
}
