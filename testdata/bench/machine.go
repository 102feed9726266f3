package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

// machine describes where the sitting ran, for the header of the report.
func machine() string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%d cores", runtime.NumCPU()))
	if kb := procField("/proc/meminfo", "MemTotal"); kb != "" {
		var n float64
		fmt.Sscanf(kb, "%f", &n)
		parts = append(parts, fmt.Sprintf("%.1f GiB", n/(1<<20)))
	}
	if m := procField("/proc/cpuinfo", "model name"); m != "" {
		parts = append(parts, m)
	}
	parts = append(parts, runtime.GOOS+"/"+runtime.GOARCH)
	if out, err := exec.Command("go", "version").Output(); err == nil {
		parts = append(parts, strings.TrimPrefix(strings.TrimSpace(string(out)), "go version "))
	}
	parts = append(parts, time.Now().UTC().Format("2006-01-02 15:04 UTC"))
	return strings.Join(parts, ", ")
}

// loadavg returns the 1-minute load average, or "?".
func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

func procField(file, key string) string {
	f, err := os.Open(file)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// machineCPU returns the CPU seconds all processes have spent busy since
// boot (from /proc/stat), or -1 where that is not available.
func machineCPU() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return -1
	}
	var busy float64
	for i, v := range f[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		if i >= 8 { // guest time is already counted in user
			break
		}
		var x float64
		fmt.Sscanf(v, "%f", &x)
		busy += x
	}
	return busy / 100 // USER_HZ
}
