package projectopstest

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/projectops/projectops-go/shared"
)

// A key create whose body fails to read, whether its length was declared
// or not, is "Invalid JSON body", as the service's readJsonBody answers
// every failure of reading the JSON.
func TestKeyCreateBodyReadErrorIsInvalidJSON(t *testing.T) {
	t.Parallel()
	for _, declared := range []int64{-1, 40} {
		body := io.MultiReader(strings.NewReader(`{"name":"k",`), iotest.ErrReader(errors.New("connection reset")))
		r := httptest.NewRequest(http.MethodPost, keySurfacePath, body)
		r.ContentLength = declared
		herr := checkKeyCreate(r)
		if herr == nil || herr.Status != http.StatusBadRequest || herr.Body.Code != shared.CodeValidation ||
			herr.Body.Message != "Invalid JSON body" || herr.Body.Details != nil {
			t.Errorf("declared length %d: checkKeyCreate = %v, want 400 VALIDATION_ERROR Invalid JSON body", declared, herr)
		}
	}
}
