//go:build !unix

package main

import "os"

// maxRSSMiB is not available here: peak RSS comes from rusage.
func maxRSSMiB(*os.ProcessState) float64 { return 0 }

// ownCPU is not available here.
func ownCPU() float64 { return 0 }
