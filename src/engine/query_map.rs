//! [`QueryMap`]: a handle on a map parsed and kept in the guest.

use wasmtime::component::ResourceAny;
use wasmtime::Store;

use super::bindings::exports::reqparse::http::query;
use super::error::EngineError;
use super::handle::Handle;
use super::inspector::WasmInspector;
use super::limits::GuestState;
use super::{MapOptions, ParseError};

/// A query map parsed in the guest (`query-map` resource). It borrows its inspector, so the
/// instance that holds the map stays the inspector's instance while the map lives, unless a
/// fault drops it (then every call is an [`EngineErrorKind::StaleHandle`](super::EngineErrorKind::StaleHandle) error). Dropping the
/// map frees the guest's map.
///
/// ```
/// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
/// use reqparse::engine::{MapOptions, QueryProfile};
/// let options = MapOptions {
///     profile: QueryProfile::Whatwg, ignore_case: false, max_pairs: None, max_decoded_bytes: None,
/// };
/// let mut map = inspector.query_map("a=1&b=2&a=3", options)?.unwrap();
/// assert_eq!(map.get("a")?.as_deref(), Some("1"));
/// assert!(map.has("b")?);
/// assert_eq!(map.len()?, 2);
/// # Ok::<(), reqparse::engine::EngineError>(())
/// ```
pub struct QueryMap<'i> {
    handle: Handle<'i>,
}

// The call that makes a map lives beside the handle it returns, so the inspector does not
// depend on its maps.
impl WasmInspector {
    /// `query-map.parse`: a map living in the guest, looked up through the returned handle.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// use reqparse::engine::{MapOptions, QueryProfile};
    /// let options = MapOptions {
    ///     profile: QueryProfile::DotNet, ignore_case: true, max_pairs: None, max_decoded_bytes: None,
    /// };
    /// let mut map = inspector.query_map("A=1&a=2", options)?.unwrap();
    /// assert_eq!(map.get_all("a")?, ["1", "2"]);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn query_map(
        &mut self,
        input: &str,
        options: MapOptions,
    ) -> Result<Result<QueryMap<'_>, ParseError>, EngineError> {
        let parsed = self.call(input.len(), |api, store| {
            api.reqparse_http_query()
                .query_map()
                .call_parse(store, input, options)
        })?;
        Ok(parsed.map(|handle| QueryMap {
            handle: Handle::new(self, handle),
        }))
    }
}

impl QueryMap<'_> {
    fn call<R>(
        &mut self,
        input_len: usize,
        f: impl FnOnce(
            query::GuestQueryMap<'_>,
            &mut Store<GuestState>,
            ResourceAny,
        ) -> wasmtime::Result<R>,
    ) -> Result<R, EngineError> {
        self.handle.call(input_len, |api, store, handle| {
            f(api.reqparse_http_query().query_map(), store, handle)
        })
    }

    /// The first value of `name`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let options = reqparse::engine::MapOptions { profile: reqparse::engine::QueryProfile::Whatwg, ignore_case: false, max_pairs: None, max_decoded_bytes: None };
    /// let mut map = inspector.query_map("a=1", options)?.unwrap();
    /// assert_eq!(map.get("a")?.as_deref(), Some("1"));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn get(&mut self, name: &str) -> Result<Option<String>, EngineError> {
        self.call(name.len(), |api, store, h| api.call_get(store, h, name))
    }

    /// Every value of `name`.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let options = reqparse::engine::MapOptions { profile: reqparse::engine::QueryProfile::Whatwg, ignore_case: false, max_pairs: None, max_decoded_bytes: None };
    /// let mut map = inspector.query_map("a=1&a=2", options)?.unwrap();
    /// assert_eq!(map.get_all("a")?, ["1", "2"]);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn get_all(&mut self, name: &str) -> Result<Vec<String>, EngineError> {
        self.call(name.len(), |api, store, h| api.call_get_all(store, h, name))
    }

    /// Whether `name` appears.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let options = reqparse::engine::MapOptions { profile: reqparse::engine::QueryProfile::Whatwg, ignore_case: false, max_pairs: None, max_decoded_bytes: None };
    /// let mut map = inspector.query_map("a", options)?.unwrap();
    /// assert!(map.has("a")?);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn has(&mut self, name: &str) -> Result<bool, EngineError> {
        self.call(name.len(), |api, store, h| api.call_has(store, h, name))
    }

    /// The number of distinct names.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let options = reqparse::engine::MapOptions { profile: reqparse::engine::QueryProfile::Whatwg, ignore_case: false, max_pairs: None, max_decoded_bytes: None };
    /// let mut map = inspector.query_map("a&b&a", options)?.unwrap();
    /// assert_eq!(map.len()?, 2);
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&mut self) -> Result<u32, EngineError> {
        self.call(0, |api, store, h| api.call_len(store, h))
    }

    /// Names in first-appearance order with their values in input order.
    ///
    /// ```
    /// # let mut inspector = reqparse::engine::WasmEngine::load(None)?.inspector()?;
    /// # let options = reqparse::engine::MapOptions { profile: reqparse::engine::QueryProfile::Whatwg, ignore_case: false, max_pairs: None, max_decoded_bytes: None };
    /// let mut map = inspector.query_map("b=1&a=2&b=3", options)?.unwrap();
    /// let entries = map.entries()?;
    /// assert_eq!(entries[0], ("b".to_string(), vec!["1".to_string(), "3".to_string()]));
    /// # Ok::<(), reqparse::engine::EngineError>(())
    /// ```
    pub fn entries(&mut self) -> Result<Vec<(String, Vec<String>)>, EngineError> {
        self.call(0, |api, store, h| api.call_entries(store, h))
    }
}
