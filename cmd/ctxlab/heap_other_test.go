//go:build !linux

package main

func hugePagesOffered() bool { return false }
