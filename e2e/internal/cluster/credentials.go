package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The admin user's name and group: system:masters passes RBAC everywhere.
const (
	AdminUser  = "e2e-admin"
	adminGroup = "system:masters"
)

type credentials struct {
	token     string
	tokenFile string
	saKeyFile string
}

// writeCredentials makes a fresh admin token and a throwaway service-account
// signing key. Both live only in dir and only for this run.
func writeCredentials(dir string) (credentials, error) {
	raw := make([]byte, 24)
	if _, err := rand.Read(raw); err != nil {
		return credentials{}, err
	}
	cr := credentials{
		token:     hex.EncodeToString(raw),
		tokenFile: filepath.Join(dir, "tokens.csv"),
		saKeyFile: filepath.Join(dir, "sa.key"),
	}
	line := fmt.Sprintf("%s,%s,%s,%q\n", cr.token, AdminUser, AdminUser, adminGroup)
	if err := os.WriteFile(cr.tokenFile, []byte(line), 0o600); err != nil {
		return credentials{}, err
	}
	// The API server derives the public key from the private one, so one
	// file serves both --service-account-signing-key-file and -key-file.
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return credentials{}, err
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return credentials{}, err
	}
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})
	if err := os.WriteFile(cr.saKeyFile, keyPEM, 0o600); err != nil {
		return credentials{}, err
	}
	return cr, nil
}

// writeKubeconfig writes a kubeconfig with one context, for kubectl.
func writeKubeconfig(path, server, token string, caData []byte) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["e2e"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: caData}
	cfg.AuthInfos["e2e-admin"] = &clientcmdapi.AuthInfo{Token: token}
	cfg.Contexts["e2e"] = &clientcmdapi.Context{Cluster: "e2e", AuthInfo: "e2e-admin", Namespace: "default"}
	cfg.CurrentContext = "e2e"
	return clientcmd.WriteToFile(*cfg, path)
}
