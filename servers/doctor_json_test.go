package servers_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/servers"
)

// A report decoded from a body without the listings (the reference makes
// them optional) encodes without them, never as null.
func TestDoctorReportNeverEncodesNullListings(t *testing.T) {
	t.Parallel()
	var rep servers.DoctorReport
	body := `{"generatedAt":"2026-11-01T00:00:00Z","status":"error","connection":{"status":"error","detail":"x"},"checks":{}}`
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{`"tools":null`, `"resources":null`, `"resourceTemplates":null`, `"prompts":null`, `"toolsMetadata":null`} {
		if strings.Contains(string(b), f) {
			t.Errorf("re-encoded report has %s: %s", f, b)
		}
	}
}

// The service's empty listings ([] and {}) re-encode as they came.
func TestDoctorReportKeepsEmptyListings(t *testing.T) {
	t.Parallel()
	var rep servers.DoctorReport
	body := `{"generatedAt":"2026-11-01T00:00:00Z","status":"ready","connection":{"status":"connected","detail":"x"},` +
		`"tools":[],"resources":[],"resourceTemplates":[],"prompts":[],"toolsMetadata":{},"checks":{}}`
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(&rep)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{`"tools":[]`, `"resources":[]`, `"resourceTemplates":[]`, `"prompts":[]`, `"toolsMetadata":{}`} {
		if !strings.Contains(string(b), f) {
			t.Errorf("re-encoded report lacks %s: %s", f, b)
		}
	}
}

// The service sends a refused connection's AUTH_ERROR as its client's
// MCPAuthError serialises: code, statusCode and name, no message and no
// details. The status is read into StatusCode.
func TestDoctorReportAuthErrorStatusCode(t *testing.T) {
	t.Parallel()
	var rep servers.DoctorReport
	body := `{"generatedAt":"2026-11-01T00:00:00Z","status":"error","connection":{"status":"error","detail":"refused"},"checks":{},` +
		`"error":{"code":"AUTH_ERROR","statusCode":401,"name":"MCPAuthError"}}`
	if err := json.Unmarshal([]byte(body), &rep); err != nil {
		t.Fatal(err)
	}
	if e := rep.Error; e == nil || e.Code != servers.ReportCodeAuthError || e.StatusCode != 401 || e.Message != "" || e.Details != nil {
		t.Fatalf("error = %+v, want AUTH_ERROR with statusCode 401, no message and no details", e)
	}
}
