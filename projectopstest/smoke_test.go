package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestSmoke(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	ws := srv.Default()
	for _, tg := range targets(t, srv) {
		var me catalog.Me
		tg.call(t, "GET", "/me", ws.APIKey, nil).decode(t, &me)
		if me.ID != ws.UserID {
			t.Errorf("%s: me = %+v", tg.name, me)
		}
	}
}
