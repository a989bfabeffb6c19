// Advice for errors that need the person: where the key was looked for,
// which setting names the model.

package llm

import (
	"bytes"
	"fmt"
	"net/http"

	"harness/redact"
)

// Origin says where a client's endpoint settings came from, so that its
// errors name the right config table and files.
type Origin struct {
	// Section is the config table: "endpoint" (the default) or
	// "approval_description.endpoint".
	Section string
	// KeySource is where the API key was found: "the environment" or the
	// .env path (config.Config.KeySource); "" when it was not found.
	KeySource string
	// Dotenv is the .env file keys are looked up in after the environment.
	Dotenv string
}

// WithOrigin tells the client where its settings came from.
func WithOrigin(o Origin) Option { return func(c *Client) { c.origin = o } }

func (o Origin) section() string {
	if o.Section == "" {
		return "endpoint"
	}
	return o.Section
}

func (o Origin) dotenv() string {
	if o.Dotenv == "" {
		return "$HARNESS_HOME/.env"
	}
	return o.Dotenv
}

// advice says what to do about an HTTP error status.
func (c *Client) advice(code int, msg string) string {
	sec := "[" + c.origin.section() + "]"
	switch {
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return c.keyAdvice(sec)
	case code == http.StatusRequestEntityTooLarge || contextMarker(msg):
		return "the conversation is longer than the model's context"
	case code == http.StatusNotFound || modelMissing(msg):
		return fmt.Sprintf("check %s model = %q (and base_url) in config.toml; `harness doctor` lists the models the server serves", sec, c.ep.Model)
	}
	return statusHint(code, msg)
}

// keyAdvice says where the key was looked for and how to fix it.
func (c *Client) keyAdvice(sec string) string {
	env, dotenv := c.ep.APIKeyEnv, c.origin.dotenv()
	switch {
	case env == "":
		return fmt.Sprintf("the server wants an API key: set %s api_key_env in config.toml to the name of a variable, put NAME=<key> in %s (or export it), then run `harness doctor`", sec, dotenv)
	case c.apiKey == "":
		return fmt.Sprintf("%s api_key_env names %s, which is set in neither the environment nor %s, so no key was sent: add %s=<key> to %s (or export it), then run `harness doctor`", sec, env, dotenv, env, dotenv)
	}
	from := c.origin.KeySource
	if from == "" {
		from = "the environment or " + dotenv
	}
	return fmt.Sprintf("the server refused the key in %s (%s api_key_env; read from %s, looked for in the environment first, then in %s): check the key and its access to model %q, then run `harness doctor`",
		env, sec, from, dotenv, c.ep.Model)
}

// scrubKey replaces every occurrence of key in b.
func scrubKey(b []byte, key string) []byte {
	if key == "" || !bytes.Contains(b, []byte(key)) {
		return b
	}
	return bytes.ReplaceAll(b, []byte(key), []byte(redact.Marker))
}
