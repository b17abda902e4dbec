//! [`Handle`]: a guest resource held with the inspector whose instance owns it, shared by
//! every resource wrapper ([`QueryMap`](super::QueryMap) and the body readers).

use wasmtime::component::ResourceAny;
use wasmtime::Store;

use super::bindings::Reqparse;
use super::error::{EngineError, EngineErrorKind};
use super::inspector::WasmInspector;
use super::limits::GuestState;

/// A resource of the inspector's current instance. It borrows the inspector, so no other call
/// can recycle the instance while it lives; a fault still drops the instance, and then every
/// call is an [`EngineErrorKind::StaleHandle`] error. Dropping it runs the guest's destructor.
pub(super) struct Handle<'i> {
    pub(super) inspector: &'i mut WasmInspector,
    handle: ResourceAny,
    /// Detached: the resource lives on in the guest without this borrow (see
    /// [`Handle::detach`]); dropping the handle then leaves it alone.
    detached: bool,
}

impl<'i> Handle<'i> {
    pub(super) fn new(inspector: &'i mut WasmInspector, handle: ResourceAny) -> Self {
        Handle {
            inspector,
            handle,
            detached: false,
        }
    }

    /// Gives the resource up without dropping it in the guest: it can be attached again with
    /// [`Handle::new`] while the same instance lives ([`Detached`](super::body) checks that).
    pub(super) fn detach(mut self) -> ResourceAny {
        self.detached = true;
        self.handle
    }

    /// One call on the resource under the same limits as every call: the input size checked
    /// before entering the guest, a fresh deadline, the instance dropped on a fault.
    pub(super) fn call<R>(
        &mut self,
        input_len: usize,
        f: impl FnOnce(&Reqparse, &mut Store<GuestState>, ResourceAny) -> wasmtime::Result<R>,
    ) -> Result<R, EngineError> {
        self.inspector.shared.limits.check_input(input_len)?;
        let handle = self.handle;
        let deadline = self.inspector.deadline_ticks;
        let Some(live) = self.inspector.live.as_mut() else {
            return Err(EngineError::new(
                EngineErrorKind::StaleHandle,
                "a fault dropped the instance that holds this resource",
            ));
        };
        let result = live.enter(deadline, |api, store| f(api, store, handle));
        self.inspector.drop_on_fault(result)
    }
}

impl Drop for Handle<'_> {
    fn drop(&mut self) {
        if self.detached {
            return;
        }
        // No instance: a fault dropped it, and the resource with it.
        if let Some(live) = self.inspector.live.as_mut() {
            // The guest's destructor runs under a fresh deadline, like any call.
            live.store.set_epoch_deadline(self.inspector.deadline_ticks);
            // A failing destructor means the instance is broken: replace it.
            if self.handle.resource_drop(&mut live.store).is_err() {
                self.inspector.live = None;
            }
        }
    }
}
