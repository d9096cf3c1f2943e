package cluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"
)

// Cluster is a running etcd and kube-apiserver pair.
type Cluster struct {
	// Dir holds the data, keys, certificates, logs and the kubeconfig.
	Dir string
	// URL is the API server's address, https://127.0.0.1:<port>.
	URL string
	// Kubeconfig is the path of a kubeconfig file for the admin user.
	Kubeconfig string

	bins      Binaries
	token     string
	caData    []byte
	etcd      *process
	apiserver *process
	keepDir   bool
}

// Options tune Start. The zero value is fine.
type Options struct {
	// ReadyTimeout bounds the wait for the API server's /readyz; zero means
	// 2 min (45 s were seen on 2 cores shared with other builds).
	ReadyTimeout time.Duration
	// KeepDir leaves Dir in place after Stop, for reading the logs.
	KeepDir bool
}

// Start runs etcd and kube-apiserver on free loopback ports and returns once
// the API server's /readyz answers ok. On error nothing is left running.
func Start(ctx context.Context, bins Binaries, opts Options) (c *Cluster, err error) {
	if opts.ReadyTimeout == 0 {
		opts.ReadyTimeout = 2 * time.Minute
	}
	dir, err := os.MkdirTemp("", "condengine-e2e-")
	if err != nil {
		return nil, err
	}
	c = &Cluster{Dir: dir, bins: bins, keepDir: opts.KeepDir}
	defer func() {
		if err != nil {
			c.Stop()
		}
	}()
	ports, err := freePorts(3)
	if err != nil {
		return c, err
	}
	etcdURL := "http://127.0.0.1:" + strconv.Itoa(ports[0])
	if err := c.startEtcd(ctx, etcdURL, "http://127.0.0.1:"+strconv.Itoa(ports[1])); err != nil {
		return c, err
	}
	if err := c.startAPIServer(ctx, etcdURL, ports[2], opts.ReadyTimeout); err != nil {
		return c, err
	}
	c.Kubeconfig = filepath.Join(dir, "kubeconfig")
	if err := writeKubeconfig(c.Kubeconfig, c.URL, c.token, c.caData); err != nil {
		return c, err
	}
	return c, nil
}

func (c *Cluster) startEtcd(ctx context.Context, clientURL, peerURL string) error {
	var err error
	c.etcd, err = startProcess("etcd", c.Dir, c.bins.Etcd, []string{
		"--name=e2e",
		"--data-dir=" + filepath.Join(c.Dir, "etcd-data"),
		"--listen-client-urls=" + clientURL,
		"--advertise-client-urls=" + clientURL,
		"--listen-peer-urls=" + peerURL,
		"--initial-advertise-peer-urls=" + peerURL,
		"--initial-cluster=e2e=" + peerURL,
		"--initial-cluster-state=new",
		"--unsafe-no-fsync",
		"--log-level=warn",
	})
	if err != nil {
		return err
	}
	health := func(client *http.Client) error {
		resp, err := client.Get(clientURL + "/health")
		if err != nil {
			return err
		}
		defer func() { _ = resp.Body.Close() }()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"health":"true"`) {
			return fmt.Errorf("etcd /health: %d %s", resp.StatusCode, body)
		}
		return nil
	}
	return waitFor(ctx, c.etcd, 30*time.Second, &http.Client{Timeout: 2 * time.Second}, health)
}

func (c *Cluster) startAPIServer(ctx context.Context, etcdURL string, port int, timeout time.Duration) error {
	creds, err := writeCredentials(c.Dir)
	if err != nil {
		return err
	}
	c.token = creds.token
	certDir := filepath.Join(c.Dir, "certs")
	c.URL = "https://127.0.0.1:" + strconv.Itoa(port)
	c.apiserver, err = startProcess("kube-apiserver", c.Dir, c.bins.APIServer, []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + certDir,
		"--token-auth-file=" + creds.tokenFile,
		"--anonymous-auth=false",
		"--authorization-mode=RBAC",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-signing-key-file=" + creds.saKeyFile,
		"--service-account-key-file=" + creds.saKeyFile,
		"--service-cluster-ip-range=10.0.0.0/24",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
		"--v=1",
	})
	if err != nil {
		return err
	}
	// The serving certificate is written at start; trust it once it exists,
	// so that every later request verifies the server.
	ready := func(_ *http.Client) error {
		if c.caData == nil {
			data, err := os.ReadFile(filepath.Join(certDir, "apiserver.crt"))
			if err != nil {
				return err
			}
			c.caData = data
		}
		client, err := c.httpClient()
		if err != nil {
			return err
		}
		return c.readyz(client)
	}
	return waitFor(ctx, c.apiserver, timeout, nil, ready)
}

// readyz asks the API server whether every readiness check passes.
func (c *Cluster) readyz(client *http.Client) error {
	req, err := http.NewRequest(http.MethodGet, c.URL+"/readyz", nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/readyz: %d %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}

// httpClient is a plain client that trusts the API server's certificate.
func (c *Cluster) httpClient() (*http.Client, error) {
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(c.caData) {
		return nil, errors.New("no certificate in the API server's apiserver.crt")
	}
	return &http.Client{
		Timeout:   5 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}, nil
}

// waitFor polls check until it returns nil, the program exits, the timeout
// passes or ctx ends, whichever is first; errors carry the log's tail.
func waitFor(ctx context.Context, p *process, timeout time.Duration, client *http.Client, check func(*http.Client) error) error {
	deadline := time.Now().Add(timeout)
	var last error
	for {
		if done, err := p.exited(); done {
			return fmt.Errorf("%s %v; log tail:\n%s", p.name, err, p.tail(4000))
		}
		if last = check(client); last == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready after %s: %v; log tail:\n%s", p.name, timeout, last, p.tail(4000))
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Stop ends the API server, then etcd, and removes Dir unless KeepDir was
// set. It is safe to call more than once.
func (c *Cluster) Stop() {
	if c.apiserver != nil {
		c.apiserver.stop(15 * time.Second)
		c.apiserver = nil
	}
	if c.etcd != nil {
		c.etcd.stop(10 * time.Second)
		c.etcd = nil
	}
	if c.Dir != "" && !c.keepDir {
		_ = os.RemoveAll(c.Dir)
	}
}

// RESTConfig returns a client configuration for the admin user, with a high
// client-side rate limit: throttling belongs to the API server under test.
func (c *Cluster) RESTConfig() *rest.Config {
	return &rest.Config{
		Host:            c.URL,
		BearerToken:     c.token,
		TLSClientConfig: rest.TLSClientConfig{CAData: c.caData},
		QPS:             1000,
		Burst:           2000,
		Timeout:         30 * time.Second,
	}
}

// Logs returns the tails of both programs' logs, for a failing test's report.
func (c *Cluster) Logs() string {
	var b strings.Builder
	for _, p := range []*process{c.etcd, c.apiserver} {
		if p != nil {
			fmt.Fprintf(&b, "--- %s (%s) ---\n%s\n", p.name, p.log, p.tail(8000))
		}
	}
	return b.String()
}

// freePorts asks the kernel for n distinct free loopback ports. The listeners
// are held until all are chosen so that the same port is never returned twice.
func freePorts(n int) ([]int, error) {
	var ports []int
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
