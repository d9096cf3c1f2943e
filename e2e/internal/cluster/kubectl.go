package cluster

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// Kubectl runs the real kubectl against the cluster and returns its standard
// output. stdin, when not empty, is fed to it (for `apply -f -`). The error,
// if any, carries the command line and standard error.
func (c *Cluster) Kubectl(ctx context.Context, stdin string, args ...string) (string, error) {
	cmd := c.KubectlCmd(ctx, args...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		return out.String(), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, strings.TrimSpace(errOut.String()))
	}
	return out.String(), nil
}

// KubectlCmd prepares a kubectl command without running it, for callers that
// need to start it and watch it (kubectl wait). Its HOME is the cluster's
// directory, so its discovery cache never mixes with another cluster's.
func (c *Cluster) KubectlCmd(ctx context.Context, args ...string) *exec.Cmd {
	full := append([]string{"--kubeconfig=" + c.Kubeconfig, "--cache-dir=" + filepath.Join(c.Dir, "kube-cache")}, args...)
	cmd := exec.CommandContext(ctx, c.bins.Kubectl, full...)
	env := []string{"HOME=" + c.Dir, "PATH=" + os.Getenv("PATH")}
	cmd.Env = env
	return cmd
}

// PluginCmd prepares `kubectl args...` where args[0] names a kubectl
// plugin that kubectl is to find on PATH, with dir first on it. kubectl
// refuses flags before a plugin's name and passes every argument after it
// to the plugin, so the kubeconfig and cache flags, which KubectlCmd puts
// first, come last here: the plugin reads them.
func (c *Cluster) PluginCmd(ctx context.Context, dir string, args ...string) *exec.Cmd {
	full := append(slices.Clone(args), "--kubeconfig="+c.Kubeconfig, "--cache-dir="+filepath.Join(c.Dir, "kube-cache"))
	cmd := exec.CommandContext(ctx, c.bins.Kubectl, full...)
	cmd.Env = []string{"HOME=" + c.Dir, "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}
	return cmd
}

// Get fetches a path of the API server (for /metrics) as the admin user.
func (c *Cluster) Get(ctx context.Context, path string) ([]byte, error) {
	client, err := c.httpClient()
	if err != nil {
		return nil, err
	}
	client.Timeout = 0 // ctx bounds the request
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.URL+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return body, fmt.Errorf("GET %s: %s", path, resp.Status)
	}
	return body, nil
}
