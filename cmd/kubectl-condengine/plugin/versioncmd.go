package plugin

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/condengine/condengine/cmd/internal/buildinfo"
)

func versionCommand(name string) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "version [-o text|json]",
		Short: "Print the version, commit and Go release of this plugin",
		Long: `version prints the plugin's version (its release tag, a pseudo-version
for a build from a checkout, or "(devel)"), the commit it was built from
and whether that work tree had changes, and the Go release and platform
it was built with. -o json prints the same as one object, with the keys
condengine version -o json prints. It reads no cluster.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			info := buildinfo.Read()
			switch output {
			case "text":
				return buildinfo.WriteText(cmd.OutOrStdout(), "kubectl-"+name, info)
			case "json":
				return buildinfo.WriteJSON(cmd.OutOrStdout(), info)
			}
			return fmt.Errorf("--output %q is not text or json", output)
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or json")
	return cmd
}
