#![cfg(feature = "engine-wasm")]
//! The component imports nothing (issue 3: no WASI, no clock, no random), so any host can run
//! it with an empty linker and the guest can reach no file, socket or clock.

mod support;

use wasmtime::component::{types::ComponentItem, Linker};
use wasmtime::Store;

#[test]
fn component_imports_nothing_and_exports_the_world() {
    let loaded = support::component::engine();
    let (engine, component) = (loaded.engine(), loaded.component());
    let ty = component.component_type();

    let imports: Vec<String> = ty
        .imports(engine)
        .map(|(name, _)| name.to_string())
        .collect();
    assert_eq!(
        imports,
        Vec::<String>::new(),
        "the component must import nothing"
    );

    // The WIT package reqparse:http@0.1.0 is a contract: these names, each an instance.
    let mut exports: Vec<String> = ty
        .exports(engine)
        .map(|(name, item)| {
            assert!(
                matches!(item.ty, ComponentItem::ComponentInstance(_)),
                "{name} is an interface"
            );
            name.to_string()
        })
        .collect();
    exports.sort();
    assert_eq!(
        exports,
        [
            "reqparse:http/body@0.1.0",
            "reqparse:http/disposition@0.1.0",
            "reqparse:http/inspect@0.1.0",
            "reqparse:http/query@0.1.0",
            "reqparse:http/types@0.1.0",
            "reqparse:http/uri@0.1.0",
        ]
    );

    // An empty linker is enough to instantiate it.
    let linker = Linker::<()>::new(engine);
    let mut store = Store::new(engine, ());
    store.set_epoch_deadline(1_000);
    linker
        .instantiate(&mut store, component)
        .expect("instantiates with an empty linker");
}

#[test]
fn engine_loads_the_component_and_answers() {
    let engine = support::component::engine();
    let mut inspector = engine.inspector().expect("an instance");
    assert_eq!(inspector.instances_created(), 1);
    assert_eq!(
        inspector.query_raw_pairs("a=b+c&&d").expect("a call"),
        [("a".into(), "b+c".into()), ("d".into(), "".into())]
    );
}
