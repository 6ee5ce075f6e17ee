// Package svc builds the resource packages' services for the root client
// without an exported constructor that takes an internal type: each
// resource package registers its constructor here when it is initialized,
// keyed by the service type, and projectops.NewClient asks for each one.
package svc

import (
	"fmt"
	"reflect"
	"sync"

	"github.com/projectops/projectops-go/internal/clientcfg"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

var constructors sync.Map // reflect.Type -> func(*transport.Transport) any

// Register records how to build a T. Resource packages call it from init.
func Register[T any](build func(*transport.Transport) T) {
	constructors.Store(reflect.TypeFor[T](), func(t *transport.Transport) any { return build(t) })
}

// New builds a T on t. The package defining T must be imported (its init
// registered T); a missing registration is a programming error.
func New[T any](t *transport.Transport) T {
	build, ok := constructors.Load(reflect.TypeFor[T]())
	if !ok {
		panic(fmt.Sprintf("svc: no constructor registered for %v", reflect.TypeFor[T]()))
	}
	return build.(func(*transport.Transport) any)(t).(T)
}

// Standalone builds a T alone from a client's options: a resource
// package's NewService, for programs that need that service only.
func Standalone[T any](opts []option.RequestOption, build func(*transport.Transport) T) (T, error) {
	t, err := clientcfg.Transport(opts)
	if err != nil {
		var zero T
		return zero, err
	}
	return build(t), nil
}
