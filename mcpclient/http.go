// Streamable HTTP servers: the SDK's transport with the configured headers.

package mcpclient

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport returns the transport of a Streamable HTTP server, sending
// its headers (references expanded) with every request.
func httpTransport(sp Spec) (mcp.Transport, error) {
	ex, err := expanded(sp)
	if err != nil {
		return nil, err
	}
	client := &http.Client{Transport: headerTransport{headers: ex.Headers, base: http.DefaultTransport}}
	return &mcp.StreamableClientTransport{Endpoint: ex.URL, HTTPClient: client}, nil
}

// headerTransport adds fixed headers to each request.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

func (t headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range t.headers {
			req.Header.Set(k, v)
		}
	}
	return t.base.RoundTrip(req)
}
