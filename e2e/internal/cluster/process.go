package cluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// process is one child program running in its own process group, its
// output going to a log file.
type process struct {
	name string
	cmd  *exec.Cmd
	log  string
	done chan struct{} // closed when the program has exited
	err  error         // the exit error, readable once done is closed
}

// startProcess runs bin with args, in a new process group so that stop can
// signal everything the program spawned, and with its parent-death signal
// set so that a crashed test binary does not leave it running.
func startProcess(name, dir, bin string, args []string) (*process, error) {
	logPath := filepath.Join(dir, name+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.Env = append(os.Environ(), "HOME="+dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		_ = logFile.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &process{name: name, cmd: cmd, log: logPath, done: make(chan struct{})}
	go func() {
		p.err = cmd.Wait()
		_ = logFile.Close()
		close(p.done)
	}()
	return p, nil
}

// exited reports whether the program has ended, and how.
func (p *process) exited() (bool, error) {
	select {
	case <-p.done:
		if p.err == nil {
			return true, errors.New("exited with status 0")
		}
		return true, p.err
	default:
		return false, nil
	}
}

// stop ends the program's whole process group: SIGTERM first, SIGKILL when
// it has not ended within grace. Only this group is signalled, by its id.
func (p *process) stop(grace time.Duration) {
	pgid := p.cmd.Process.Pid // Setpgid makes the child the leader of its group
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		<-p.done
	}
	// Anything the program left in its group dies with it.
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// tail returns the last n bytes of the program's log, for error reports.
func (p *process) tail(n int64) string {
	f, err := os.Open(p.log)
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil {
		return ""
	}
	off := max(fi.Size()-n, 0)
	buf := make([]byte, fi.Size()-off)
	_, _ = f.ReadAt(buf, off)
	return string(buf)
}
