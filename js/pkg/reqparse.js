/**
 * One body being read; see the section's comment for the protocol.
 */
class RpBody {
    static __wrap(ptr) {
        const obj = Object.create(RpBody.prototype);
        obj.__wbg_ptr = ptr;
        RpBodyFinalization.register(obj, obj.__wbg_ptr, obj);
        return obj;
    }
    __destroy_into_raw() {
        const ptr = this.__wbg_ptr;
        this.__wbg_ptr = 0;
        RpBodyFinalization.unregister(this);
        return ptr;
    }
    free() {
        const ptr = this.__destroy_into_raw();
        wasm.__wbg_rpbody_free(ptr, 0);
    }
    /**
     * A chunked transfer coding decoder; `limits` in `CHUNKED_LIMITS` order.
     * @param {Float64Array | number[]} limits
     * @returns {RpBody}
     */
    static chunked(limits) {
        const ptr0 = passArrayF64ToWasm0(limits, wasm.__wbindgen_malloc);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.rpbody_chunked(ptr0, len0);
        return RpBody.__wrap(ret);
    }
    /**
     * The delimiter a multipart body's data ends at (CRLF `--` boundary); empty for the
     * other readers.
     * @returns {Uint8Array}
     */
    delimiter() {
        const ret = wasm.rpbody_delimiter(this.__wbg_ptr);
        var v1 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
        return v1;
    }
    /**
     * When the reader could not be made: reports why as the only event and answers
     * [`FEED_ERROR`]; else [`FEED_MORE`].
     * @returns {number}
     */
    error() {
        const ret = wasm.rpbody_error(this.__wbg_ptr);
        return ret;
    }
    /**
     * Takes the `n` bytes JS wrote where [`RpBody::reserve`] said, or at the header's `len`
     * when they fit under its `cap` (`eof`: no more follow)
     * and reads up to where more input is needed: [`FEED_MORE`], [`FEED_END`] or
     * [`FEED_ERROR`], the events in the header.
     * @param {number} n
     * @param {boolean} eof
     * @returns {number}
     */
    feed(n, eof) {
        const ret = wasm.rpbody_feed(this.__wbg_ptr, n, eof);
        return ret;
    }
    /**
     * A form body reader; `profile` as for queries, `limits` in `FORM_LIMITS` order.
     * @param {number} profile
     * @param {Float64Array | number[]} limits
     * @returns {RpBody}
     */
    static form(profile, limits) {
        const val2 = +profile;
        const ptr0 = passArrayF64ToWasm0(limits, wasm.__wbindgen_malloc);
        const len0 = WASM_VECTOR_LEN;
        const ret = wasm.rpbody_form(val2, ptr0, len0);
        return RpBody.__wrap(ret);
    }
    /**
     * Address of this handle's header (`BODY_SLOTS.len()` `u32`); it never moves.
     * @returns {number}
     */
    header() {
        const ret = wasm.rpbody_header(this.__wbg_ptr);
        return ret >>> 0;
    }
    /**
     * Sets the current part's data limit (`MultipartReader::limit_part`), `max_bytes` a JS
     * number as limits are sent (a non-negative integer or infinity). `false`, and nothing
     * changed, outside a multipart part's data (JS calls it after a [`FEED_PART`]).
     * @param {number} max_bytes
     * @returns {boolean}
     */
    limit_part(max_bytes) {
        const ret = wasm.rpbody_limit_part(this.__wbg_ptr, max_bytes);
        return ret !== 0;
    }
    /**
     * A multipart/form-data reader for `boundary` (or, with `is_content_type`, for the
     * boundary of the `Content-Type` value `boundary`); `profile` is an index in the core's
     * `Profile::ALL`, `limits` in `MULTIPART_LIMITS` order; with `decide`, each feed stops
     * after a part's header ([`FEED_PART`]). A bad boundary makes a handle whose
     * [`RpBody::error`] says why.
     * @param {Uint8Array | number[]} boundary
     * @param {boolean} is_content_type
     * @param {number} profile
     * @param {Float64Array | number[]} limits
     * @param {boolean} decide
     * @returns {RpBody}
     */
    static multipart(boundary, is_content_type, profile, limits, decide) {
        const val3 = +is_content_type;
        const val4 = +profile;
        const val5 = +decide;
        let ptr0, len0, ptr1, len1;
        try {
            ptr0 = passArray8ToWasm0(boundary, wasm.__wbindgen_malloc);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passArrayF64ToWasm0(limits, wasm.__wbindgen_malloc);
            len1 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 8, 8); }
            if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
            throw e;
        }
        const ret = wasm.rpbody_multipart(ptr0, len0, val3, val4, ptr1, len1, val5);
        return RpBody.__wrap(ret);
    }
    /**
     * Keeps what was not consumed at the front of the input buffer, makes room for `n` more
     * bytes and returns where JS writes them (0 when `n` is over the cap). May grow memory.
     * @param {number} n
     * @returns {number}
     */
    reserve(n) {
        const ret = wasm.rpbody_reserve(this.__wbg_ptr, n);
        return ret >>> 0;
    }
    /**
     * Bytes fed and not consumed: after the end of a chunked body, the bytes that follow it.
     * @returns {Uint8Array}
     */
    rest() {
        const ret = wasm.rpbody_rest(this.__wbg_ptr);
        var v1 = getArrayU8FromWasm0(ret[0], ret[1]).slice();
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
        return v1;
    }
    /**
     * After [`FEED_PART`] (and JS's decision about that part): reads on over what the last
     * feed gave, as that feed would have, with the same answers.
     * @returns {number}
     */
    resume() {
        const ret = wasm.rpbody_resume(this.__wbg_ptr);
        return ret;
    }
    /**
     * Takes the next `n` bytes of a part's data without their being fed: JS found no
     * delimiter in them, nor a prefix of one at their end, with its native `indexOf` (see
     * `MultipartReader::skip_data`). `false`, and nothing changed, unless the header's `skip`
     * slot is 1 and the limits let all `n` bytes through: JS then feeds them.
     * @param {number} n
     * @returns {boolean}
     */
    skip(n) {
        const ret = wasm.rpbody_skip(this.__wbg_ptr, n);
        return ret !== 0;
    }
    /**
     * Skips the current part's data (`MultipartReader::skip_part`): no data event comes for
     * it, and [`RpBody::skip`] hands none out either. `false`, and nothing changed, outside a
     * multipart part's data.
     * @returns {boolean}
     */
    skip_part() {
        const ret = wasm.rpbody_skip_part(this.__wbg_ptr);
        return ret !== 0;
    }
}
if (Symbol.dispose) RpBody.prototype[Symbol.dispose] = RpBody.prototype.free;
exports.RpBody = RpBody;

/**
 * The protocol version `js/lib/wire.cjs` checks at load (see [`ABI_VERSION`]).
 * @returns {number}
 */
function rp_abi_version() {
    const ret = wasm.rp_abi_version();
    return ret >>> 0;
}
exports.rp_abi_version = rp_abi_version;

/**
 * `buildAbsolute`; `None` means an error is in the header.
 * @param {string} scheme
 * @param {string} host
 * @param {string} path_base
 * @param {string} path
 * @param {string} query
 * @param {string} fragment
 * @returns {string | undefined}
 */
function rp_build_absolute(scheme, host, path_base, path, query, fragment) {
    let ptr0, len0, ptr1, len1, ptr2, len2, ptr3, len3, ptr4, len4, ptr5, len5;
    try {
        ptr0 = passStringToWasm0(scheme, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len0 = WASM_VECTOR_LEN;
        ptr1 = passStringToWasm0(host, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len1 = WASM_VECTOR_LEN;
        ptr2 = passStringToWasm0(path_base, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len2 = WASM_VECTOR_LEN;
        ptr3 = passStringToWasm0(path, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len3 = WASM_VECTOR_LEN;
        ptr4 = passStringToWasm0(query, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len4 = WASM_VECTOR_LEN;
        ptr5 = passStringToWasm0(fragment, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
        len5 = WASM_VECTOR_LEN;
    } catch (e) {
        if (ptr5) { wasm.__wbindgen_free(ptr5, len5 * 1, 1); }
        if (ptr4) { wasm.__wbindgen_free(ptr4, len4 * 1, 1); }
        if (ptr3) { wasm.__wbindgen_free(ptr3, len3 * 1, 1); }
        if (ptr2) { wasm.__wbindgen_free(ptr2, len2 * 1, 1); }
        if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
        if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
        throw e;
    }
    const ret = wasm.rp_build_absolute(ptr0, len0, ptr1, len1, ptr2, len2, ptr3, len3, ptr4, len4, ptr5, len5);
    let v7;
    if (ret[0] !== 0) {
        v7 = getStringFromWasm0(ret[0], ret[1]);
        wasm.__wbindgen_free(ret[0], ret[1] * 1, 1);
    }
    return v7;
}
exports.rp_build_absolute = rp_build_absolute;

/**
 * `buildRelative`.
 * @param {string} path_base
 * @param {string} path
 * @param {string} query
 * @param {string} fragment
 * @returns {string}
 */
function rp_build_relative(path_base, path, query, fragment) {
    let deferred5_0;
    let deferred5_1;
    try {
        let ptr0, len0, ptr1, len1, ptr2, len2, ptr3, len3;
        try {
            ptr0 = passStringToWasm0(path_base, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len0 = WASM_VECTOR_LEN;
            ptr1 = passStringToWasm0(path, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len1 = WASM_VECTOR_LEN;
            ptr2 = passStringToWasm0(query, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len2 = WASM_VECTOR_LEN;
            ptr3 = passStringToWasm0(fragment, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len3 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr3) { wasm.__wbindgen_free(ptr3, len3 * 1, 1); }
            if (ptr2) { wasm.__wbindgen_free(ptr2, len2 * 1, 1); }
            if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
            if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
            throw e;
        }
        const ret = wasm.rp_build_relative(ptr0, len0, ptr1, len1, ptr2, len2, ptr3, len3);
        deferred5_0 = ret[0];
        deferred5_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        wasm.__wbindgen_free(deferred5_0, deferred5_1, 1);
    }
}
exports.rp_build_relative = rp_build_relative;

/**
 * `parseContentDisposition`: type (lowercased), effective filename or `null`, then each
 * parameter's lowercased name and value; returns the parameter count or [`ERR`].
 * @param {number} len
 * @param {number} profile
 * @param {boolean} decode_2047
 * @param {boolean} ascii_input
 * @returns {number}
 */
function rp_disposition(len, profile, decode_2047, ascii_input) {
    const ret = wasm.rp_disposition(len, profile, decode_2047, ascii_input);
    return ret;
}
exports.rp_disposition = rp_disposition;

/**
 * `formatContentDisposition`: `params` holds names and values alternately. A builder error
 * has no input offset: it is thrown as a plain JS `Error` with the crate's message.
 * @param {string} disposition_type
 * @param {string | null | undefined} filename
 * @param {string[]} params
 * @returns {string}
 */
function rp_format_disposition(disposition_type, filename, params) {
    let deferred5_0;
    let deferred5_1;
    try {
        let ptr0, len0, ptr1, len1, ptr2, len2;
        try {
            ptr0 = passStringToWasm0(disposition_type, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len0 = WASM_VECTOR_LEN;
            ptr1 = isLikeNone(filename) ? 0 : passStringToWasm0(filename, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            len1 = WASM_VECTOR_LEN;
            ptr2 = passArrayJsValueToWasm0(params, wasm.__wbindgen_malloc);
            len2 = WASM_VECTOR_LEN;
        } catch (e) {
            if (ptr2) { wasm.__externref_drop_slice(ptr2, len2); wasm.__wbindgen_free(ptr2, len2 * 4, 4); }
            if (ptr1) { wasm.__wbindgen_free(ptr1, len1 * 1, 1); }
            if (ptr0) { wasm.__wbindgen_free(ptr0, len0 * 1, 1); }
            throw e;
        }
        const ret = wasm.rp_format_disposition(ptr0, len0, ptr1, len1, ptr2, len2);
        var ptr4 = ret[0];
        var len4 = ret[1];
        if (ret[3]) {
            ptr4 = 0; len4 = 0;
            throw takeFromExternrefTable0(ret[2]);
        }
        deferred5_0 = ptr4;
        deferred5_1 = len4;
        return getStringFromWasm0(ptr4, len4);
    } finally {
        wasm.__wbindgen_free(deferred5_0, deferred5_1, 1);
    }
}
exports.rp_format_disposition = rp_format_disposition;

/**
 * Address of the result header (`SLOTS.len()` `u32`).
 * @returns {number}
 */
function rp_header() {
    const ret = wasm.rp_header();
    return ret >>> 0;
}
exports.rp_header = rp_header;

/**
 * Makes the input buffer hold at least `len` bytes and returns its address (0 if `len` is
 * over the cap). May grow memory: JS re-creates its views afterwards.
 * @param {number} len
 * @returns {number}
 */
function rp_input(len) {
    const ret = wasm.rp_input(len);
    return ret >>> 0;
}
exports.rp_input = rp_input;

/**
 * The protocol's numbers as JSON, read once by `js/lib/wire.cjs` at load:
 * `{"header": {slot: index}, "tagShift", "tags": {tag: value}, "maxInputLength",
 * "queryProfiles": [names in wire order], "dispositionProfiles": [...], "body": {"header":
 * {slot: index}, "events": {event: tag}, "words": {event: words after its tag}, "fields":
 * {event: {field: its first word's offset from the tag}}, "spanText", "null", "maxFeed",
 * "more", "end", "error", "part", "multipartProfiles": [...], "chunkedLimits": [names in
 * wire order], "formLimits": [...], "multipartLimits": [...]}}`.
 * @returns {string}
 */
function rp_layout() {
    let deferred1_0;
    let deferred1_1;
    try {
        const ret = wasm.rp_layout();
        deferred1_0 = ret[0];
        deferred1_1 = ret[1];
        return getStringFromWasm0(ret[0], ret[1]);
    } finally {
        wasm.__wbindgen_free(deferred1_0, deferred1_1, 1);
    }
}
exports.rp_layout = rp_layout;

/**
 * The wasm memory, for JS's views (an export named `memory` would clash with wasm-bindgen's).
 * @returns {any}
 */
function rp_memory() {
    const ret = wasm.rp_memory();
    return ret;
}
exports.rp_memory = rp_memory;

/**
 * `parseQuery`: per distinct name, the name, its values, then a `null`; returns the number of
 * names or [`ERR`].
 * @param {number} len
 * @param {number} profile
 * @param {boolean} ignore_case
 * @param {boolean} ascii_input
 * @returns {number}
 */
function rp_query_map(len, profile, ignore_case, ascii_input) {
    const ret = wasm.rp_query_map(len, profile, ignore_case, ascii_input);
    return ret;
}
exports.rp_query_map = rp_query_map;

/**
 * `queryPairs`: name and value of each pair of the `len`-byte input; returns the pair count
 * or [`ERR`]. `ascii_input`: JS saw `written === string.length`.
 * @param {number} len
 * @param {number} profile
 * @param {boolean} raw
 * @param {boolean} ascii_input
 * @returns {number}
 */
function rp_query_pairs(len, profile, raw, ascii_input) {
    const ret = wasm.rp_query_pairs(len, profile, raw, ascii_input);
    return ret;
}
exports.rp_query_pairs = rp_query_pairs;

/**
 * `splitAbsolute`: scheme, host, path, query, fragment; returns 5 or [`ERR`].
 * @param {number} len
 * @param {boolean} ascii_input
 * @returns {number}
 */
function rp_split_absolute(len, ascii_input) {
    const ret = wasm.rp_split_absolute(len, ascii_input);
    return ret;
}
exports.rp_split_absolute = rp_split_absolute;
function __wbg_get_imports() {
    const import0 = {
        __proto__: null,
        __wbg_Error_208446807d0d1e30: function(arg0, arg1) {
            const ret = Error(getStringFromWasm0(arg0, arg1));
            return ret;
        },
        __wbg___wbindgen_memory_17a1178bc3328ea3: function() {
            const ret = wasm.memory;
            return ret;
        },
        __wbg___wbindgen_string_get_7ce8eee7fd327545: function(arg0, arg1) {
            const obj = arg1;
            const ret = typeof(obj) === 'string' ? obj : undefined;
            var ptr1 = isLikeNone(ret) ? 0 : passStringToWasm0(ret, wasm.__wbindgen_malloc, wasm.__wbindgen_realloc);
            var len1 = WASM_VECTOR_LEN;
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 1, len1, true);
            getDataViewMemory0().setInt32((arg0 >>> 0) + 4 * 0, ptr1, true);
        },
        __wbg___wbindgen_throw_4c88d8bf264fd984: function(arg0, arg1) {
            throw new Error(getStringFromWasm0(arg0, arg1));
        },
        __wbindgen_init_externref_table: function() {
            const table = wasm.__wbindgen_externrefs;
            table.set(0, undefined);
            table.set(1024, undefined);
            table.set(1025, null);
            table.set(1026, true);
            table.set(1027, false);
        },
    };
    return {
        __proto__: null,
        "./reqparse_bg.js": import0,
    };
}

const RpBodyFinalization = (typeof FinalizationRegistry === 'undefined')
    ? { register: () => {}, unregister: () => {} }
    : new FinalizationRegistry(ptr => wasm.__wbg_rpbody_free(ptr, 1));

function addToExternrefTable0(obj) {
    const idx = wasm.__externref_table_alloc();
    wasm.__wbindgen_externrefs.set(idx, obj);
    return idx;
}

function getArrayU8FromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return getUint8ArrayMemory0().subarray(ptr / 1, ptr / 1 + len);
}

let cachedDataViewMemory0 = null;
function getDataViewMemory0() {
    if (cachedDataViewMemory0 === null || cachedDataViewMemory0.buffer.detached === true || (cachedDataViewMemory0.buffer.detached === undefined && cachedDataViewMemory0.buffer !== wasm.memory.buffer)) {
        cachedDataViewMemory0 = new DataView(wasm.memory.buffer);
    }
    return cachedDataViewMemory0;
}

let cachedFloat64ArrayMemory0 = null;
function getFloat64ArrayMemory0() {
    if (cachedFloat64ArrayMemory0 === null || cachedFloat64ArrayMemory0.byteLength === 0) {
        cachedFloat64ArrayMemory0 = new Float64Array(wasm.memory.buffer);
    }
    return cachedFloat64ArrayMemory0;
}

function getStringFromWasm0(ptr, len) {
    ptr = ptr >>> 0;
    return decodeText(getUint8ArrayMemory0().subarray(ptr, ptr + len));
}

let cachedUint8ArrayMemory0 = null;
function getUint8ArrayMemory0() {
    if (cachedUint8ArrayMemory0 === null || cachedUint8ArrayMemory0.byteLength === 0) {
        cachedUint8ArrayMemory0 = new Uint8Array(wasm.memory.buffer);
    }
    return cachedUint8ArrayMemory0;
}

function isLikeNone(x) {
    return x === undefined || x === null;
}

function passArray8ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 1, 1) >>> 0;
    getUint8ArrayMemory0().set(arg, ptr / 1);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passArrayF64ToWasm0(arg, malloc) {
    const ptr = malloc(arg.length * 8, 8) >>> 0;
    getFloat64ArrayMemory0().set(arg, ptr / 8);
    WASM_VECTOR_LEN = arg.length;
    return ptr;
}

function passArrayJsValueToWasm0(array, malloc) {
    const ptr = malloc(array.length * 4, 4) >>> 0;
    for (let i = 0; i < array.length; i++) {
        const add = addToExternrefTable0(array[i]);
        getDataViewMemory0().setUint32(ptr + 4 * i, add, true);
    }
    WASM_VECTOR_LEN = array.length;
    return ptr;
}

function passStringToWasm0(arg, malloc, realloc) {
    if (realloc === undefined) {
        const buf = cachedTextEncoder.encode(arg);
        const ptr = malloc(buf.length, 1) >>> 0;
        getUint8ArrayMemory0().subarray(ptr, ptr + buf.length).set(buf);
        WASM_VECTOR_LEN = buf.length;
        return ptr;
    }

    let len = arg.length;
    let ptr = malloc(len, 1) >>> 0;

    const mem = getUint8ArrayMemory0();

    let offset = 0;

    for (; offset < len; offset++) {
        const code = arg.charCodeAt(offset);
        if (code > 0x7F) break;
        mem[ptr + offset] = code;
    }
    if (offset !== len) {
        if (offset !== 0) {
            arg = arg.slice(offset);
        }
        ptr = realloc(ptr, len, len = offset + arg.length * 3, 1) >>> 0;
        const view = getUint8ArrayMemory0().subarray(ptr + offset, ptr + len);
        const ret = cachedTextEncoder.encodeInto(arg, view);

        offset += ret.written;
        ptr = realloc(ptr, len, offset, 1) >>> 0;
    }

    WASM_VECTOR_LEN = offset;
    return ptr;
}

function takeFromExternrefTable0(idx) {
    const value = wasm.__wbindgen_externrefs.get(idx);
    wasm.__externref_table_dealloc(idx);
    return value;
}

let cachedTextDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
cachedTextDecoder.decode();
function decodeText(bytes) {
    return cachedTextDecoder.decode(bytes);
}

const cachedTextEncoder = new TextEncoder();

if (!('encodeInto' in cachedTextEncoder)) {
    cachedTextEncoder.encodeInto = function (arg, view) {
        const buf = cachedTextEncoder.encode(arg);
        view.set(buf);
        return {
            read: arg.length,
            written: buf.length
        };
    };
}

let WASM_VECTOR_LEN = 0;

const wasmPath = `${__dirname}/reqparse_bg.wasm`;
const wasmBytes = require('fs').readFileSync(wasmPath);
const wasmModule = new WebAssembly.Module(wasmBytes);
let wasmInstance = new WebAssembly.Instance(wasmModule, __wbg_get_imports());
let wasm = wasmInstance.exports;
wasm.__wbindgen_start();
