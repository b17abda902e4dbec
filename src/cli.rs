//! Argument parsing and the answers of each subcommand. Only converts between the command
//! line, the library's types and JSON: every decision about the input is the library's.

use std::borrow::Cow;
use std::io::Read;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};
use serde_json::{json, Map, Value};

use reqparse::body::chunked::ChunkedLimits;
use reqparse::body::form::FormLimits;
use reqparse::body::multipart::{self, MultipartLimits};
use reqparse::{disposition, query, uri};

/// Parse the parts of an HTTP request servers touch most, without allocating.
#[derive(Debug, Parser)]
#[command(
    name = "reqparse",
    version,
    about,
    propagate_version = true,
    after_help = "Every subcommand has an example in its help (`reqparse help query`). \
        Rejected input: one line on stderr, exit status 1.\n\n\
        Examples:\n  \
        reqparse query 'a=1&b=x+y'\n  \
        printf 'a=1&b=x+y' | reqparse form\n\n\
        Installed from a checkout with `cargo install --path . --features cli`."
)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print the name/value pairs of a query string as JSON.
    #[command(after_help = "Examples:\n  \
        reqparse query '?q=rust+forms&lang=en'          # [[\"q\",\"rust forms\"],[\"lang\",\"en\"]]\n  \
        reqparse query --map 'a=1&b=2&a=3'              # {\"a\":[\"1\",\"3\"],\"b\":[\"2\"]}\n  \
        reqparse query --profile strict '?a=1&b=%zz'    # exits 1: invalid percent escape at byte 7")]
    Query(QueryArgs),
    /// Build or split URIs (ASP.NET Core UriHelper semantics).
    #[command(after_help = "Examples:\n  \
        reqparse uri build --scheme https --host localhost   # https://localhost/\n  \
        reqparse uri relative --path-base /base --path 'a b'  # /base/a%20b\n  \
        reqparse uri split 'https://h/p%20q?x#f'")]
    Uri {
        #[command(subcommand)]
        op: UriOp,
    },
    /// Parse (or, with --format, write) a Content-Disposition header value.
    #[command(after_help = "Examples:\n  \
        reqparse disposition 'attachment; filename=\"a.txt\"'\n  \
        reqparse disposition --profile browser 'attachment; filename=foo bar'\n  \
        reqparse disposition --format --type inline --filename 'File?Name.bat'")]
    Disposition(DispositionArgs),
    /// Run the inspection server: every request is answered with JSON of what reqparse made of
    /// it, bodies included (form pairs; multipart parts with name, filename, size, sha256);
    /// GET / is an upload page to try it from a browser.
    #[command(after_help = "Examples:\n  \
        reqparse serve                                   # http://127.0.0.1:8080, one loop per core\n  \
        reqparse serve --addr 0.0.0.0:9000 --threads 2\n  \
        curl -s 'http://127.0.0.1:8080/p?q=1'            # from another shell: the JSON answer\n  \
        curl -F file=@photo.jpg -F note=hi http://127.0.0.1:8080/upload")]
    Serve(ServeArgs),
    /// Decode a chunked body (RFC 9112 §7.1) to stdout, strictly and in bounded memory.
    #[command(after_help = limits_help::<ChunkedLimits>(
        "The input must be one chunked body and end with it: bytes after its last chunk and \
         trailers (another message, perhaps a smuggled one) are refused.\n\n\
         Examples:\n  \
         printf '5\\r\\nhello\\r\\n0\\r\\n\\r\\n' | reqparse chunked   # hello\n  \
         reqparse chunked --trailers --out data.bin body.bin  # {\"size\":5,\"sha256\":\"…\",\"trailers\":[]}\n  \
         reqparse chunked --limit max_body_bytes=1G body.bin > data.bin"))]
    Chunked(ChunkedArgs),
    /// Print the pairs of an application/x-www-form-urlencoded body as JSON (like `query`).
    #[command(after_help = limits_help::<FormLimits>(
        "Examples:\n  \
         printf 'a=1&b=x+y' | reqparse form          # [[\"a\",\"1\"],[\"b\",\"x y\"]]\n  \
         reqparse form --profile strict body.txt\n  \
         reqparse form --limit max_pairs=10000 body.txt"))]
    Form(FormArgs),
    /// Print the parts of a multipart/form-data body as JSON: each part's name, filename,
    /// content type (as sent, and as its MIME type), size, SHA-256 and, for a part without a
    /// filename, its value as text.
    #[command(after_help = limits_help::<MultipartLimits>(
        "Examples:\n  \
         reqparse multipart --boundary=XyZ body.bin\n  \
         reqparse multipart --content-type 'multipart/form-data; boundary=XyZ' < body.bin\n  \
         reqparse multipart --boundary=XyZ --limit max_file_bytes=1G --limit max_files=500 body.bin"))]
    Multipart(MultipartArgs),
    /// Write the WebAssembly component that ships inside this binary (the one `serve --engine
    /// wasm` runs), or its WIT, for hosts in any language: it imports nothing, so any
    /// component runtime runs it with an empty linker.
    #[command(after_help = "Examples:\n  \
        reqparse component --out reqparse.component.wasm   # prints its size and SHA-256\n  \
        reqparse component --wit --out reqparse.wit\n  \
        reqparse component --out - | wasm-tools component wit")]
    Component(ComponentArgs),
}

#[derive(Debug, clap::Args)]
struct ComponentArgs {
    /// Where to write it (`-`: stdout). An existing file is replaced.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Write the component's WIT (`wit/reqparse.wit`, package `reqparse:http`) instead.
    #[arg(long)]
    wit: bool,
}

#[derive(Debug, clap::Args)]
struct MultipartArgs {
    /// The boundary: the `boundary` parameter of the body's Content-Type, unquoted.
    #[arg(
        long,
        allow_hyphen_values = true,
        required_unless_present = "content_type"
    )]
    boundary: Option<String>,
    /// Instead of --boundary: the body's whole Content-Type value, whose boundary is used
    /// (e.g. `multipart/form-data; boundary=----x`).
    #[arg(long, allow_hyphen_values = true, conflicts_with = "boundary")]
    content_type: Option<String>,
    /// Which rules the body is held to (fetch: the Fetch Standard's parser, as browsers read).
    #[arg(long, default_value_t = multipart::Profile::Fetch,
          value_parser = profile_parser(&multipart::Profile::ALL, multipart::Profile::as_str))]
    profile: multipart::Profile,
    #[command(flatten)]
    limits: LimitArgs,
    /// The body: a file, or `-` (the default) for stdin.
    #[arg(default_value = "-")]
    input: PathBuf,
}

/// `--limit NAME=VALUE`: a reader's limits by the names of its limits struct's fields.
#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// Set a limit of the reader (repeatable): NAME is one of those listed below, VALUE a
    /// number, with K, M or G for KiB, MiB or GiB (e.g. max_file_bytes=1G).
    #[arg(long = "limit", value_name = "NAME=VALUE", value_parser = limit_arg)]
    limits: Vec<(String, u64)>,
}

impl LimitArgs {
    /// The reader's default limits with those given set, or the one line saying why not.
    fn apply<L: Limits>(&self) -> Result<L, String> {
        let mut limits = L::default();
        for (name, value) in &self.limits {
            limits.set(name, *value).map_err(|e| match e {
                reqparse::body::LimitError::Unknown => {
                    format!("unknown limit {name:?} (one of: {})", L::NAMES.join(", "))
                }
                e => format!("--limit {name}={value}: {e}"),
            })?;
        }
        Ok(limits)
    }
}

/// The three readers' limits structs, by name.
trait Limits: Default {
    const NAMES: &'static [&'static str];
    fn get(&self, name: &str) -> Option<u64>;
    fn set(&mut self, name: &str, value: u64) -> Result<(), reqparse::body::LimitError>;
}

macro_rules! limits_impl {
    ($($ty:ty),+) => {$(
        impl Limits for $ty {
            const NAMES: &'static [&'static str] = <$ty>::NAMES;
            fn get(&self, name: &str) -> Option<u64> {
                <$ty>::get(self, name)
            }
            fn set(&mut self, name: &str, value: u64) -> Result<(), reqparse::body::LimitError> {
                <$ty>::set(self, name, value)
            }
        }
    )+};
}
limits_impl!(MultipartLimits, FormLimits, ChunkedLimits);

/// A subcommand's help after its text: the limits `--limit` sets, each with its default.
fn limits_help<L: Limits>(text: &str) -> String {
    let defaults = L::default();
    let width = L::NAMES.iter().map(|n| n.len()).max().unwrap_or(0);
    let mut help = format!("{text}\n\nLimits (--limit NAME=VALUE), with their defaults:");
    for name in L::NAMES {
        let value = defaults.get(name).unwrap_or_default();
        help.push_str(&format!("\n  {name:width$}  {}", with_unit(value)));
    }
    help
}

/// A limit's value as the help shows it: in KiB, MiB or GiB when it is a whole number of one.
fn with_unit(value: u64) -> String {
    for (unit, shift) in [("G", 30), ("M", 20), ("K", 10)] {
        if value >= 1 << shift && value.is_multiple_of(1 << shift) {
            return format!("{value} ({}{unit})", value >> shift);
        }
    }
    value.to_string()
}

/// `--limit NAME=VALUE`: VALUE a decimal number, with K, M or G (KiB, MiB, GiB; `KiB` etc.
/// spelled out too).
fn limit_arg(arg: &str) -> Result<(String, u64), String> {
    let (name, value) = arg
        .split_once('=')
        .ok_or_else(|| "expected NAME=VALUE (e.g. max_file_bytes=1G)".to_owned())?;
    let lower = value.trim().to_ascii_lowercase();
    let digits = lower.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let shift = match &lower[digits.len()..] {
        "" | "b" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        unit => return Err(format!("unknown unit {unit:?} (K, M, G or T)")),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{value:?} is not a number of bytes (e.g. 4096, 64K, 1G)"))?;
    let n = n
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{value:?} is over {}", u64::MAX))?;
    Ok((name.trim().to_owned(), n))
}

#[derive(Debug, clap::Args)]
struct FormArgs {
    /// How bytes that are not UTF-8 once decoded, or malformed escapes, are treated.
    #[arg(long, default_value_t = query::Profile::Whatwg,
          value_parser = profile_parser(&query::Profile::ALL, query::Profile::as_str))]
    profile: query::Profile,
    #[command(flatten)]
    limits: LimitArgs,
    /// The body: a file, or `-` (the default) for stdin.
    #[arg(default_value = "-")]
    input: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ChunkedArgs {
    /// Print, instead of the data, one line of JSON: the data's size and SHA-256 and the
    /// trailer fields as [name, value] pairs (the data goes to --out, when given).
    #[arg(long)]
    trailers: bool,
    /// With --trailers: write the decoded data to this file (`-`: nowhere else but the hash).
    #[arg(long, value_name = "FILE", requires = "trailers")]
    out: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    /// The chunked body: a file, or `-` (the default) for stdin.
    #[arg(default_value = "-")]
    input: PathBuf,
}

#[derive(Debug, clap::Args)]
struct QueryArgs {
    /// How bytes that are not UTF-8 once decoded, or malformed escapes, are treated.
    #[arg(long, default_value_t = query::Profile::Whatwg,
          value_parser = profile_parser(&query::Profile::ALL, query::Profile::as_str))]
    profile: query::Profile,
    /// Print the pairs as written, without decoding `+` and `%XX`.
    #[arg(long, conflicts_with = "map")]
    raw: bool,
    /// Print a JSON object of name to array of values (names in first-appearance order).
    #[arg(long)]
    map: bool,
    /// With --map, compare names ignoring ASCII case (the first spelling is kept).
    #[arg(long, requires = "map")]
    ignore_case: bool,
    /// The query string, with or without its leading `?`.
    #[arg(allow_hyphen_values = true)]
    query: String,
}

#[derive(Debug, Subcommand)]
enum UriOp {
    /// Print the absolute URI built from its parts.
    #[command(after_help = "Example:\n  \
        reqparse uri build --scheme http --host 'bücher.example:8080' --path '/a b' --query '?x=1'\n  \
        # http://xn--bcher-kva.example:8080/a%20b?x=1")]
    Build {
        /// The scheme (RFC 3986 §3.1), e.g. `https`.
        #[arg(long)]
        scheme: String,
        /// Host, with an optional port; Unicode hosts become punycode.
        #[arg(long)]
        host: String,
        #[command(flatten)]
        rest: RelativeParts,
    },
    /// Print the relative URI (path base, path, query, fragment).
    #[command(after_help = "Example:\n  \
        reqparse uri relative --path-base /base --path 'a b' --query '?x=1'   # /base/a%20b?x=1")]
    Relative {
        #[command(flatten)]
        rest: RelativeParts,
    },
    /// Print the parts of an absolute URI as JSON.
    #[command(after_help = "Example:\n  \
        reqparse uri split 'https://h/p%20q?x#f'\n  \
        # {\"scheme\":\"https\",\"host\":\"h\",\"path\":\"/p q\",\"query\":\"?x\",\"fragment\":\"#f\"}")]
    Split {
        /// The absolute URI (`scheme://host/path?query#fragment`; the host may not be empty).
        #[arg(allow_hyphen_values = true)]
        uri: String,
    },
}

#[derive(Debug, clap::Args)]
struct RelativeParts {
    /// The path base (where the application is mounted), decoded; a missing leading `/` is
    /// added.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    path_base: String,
    /// The path, decoded (escaped on output; valid `%XX` escapes are kept).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    path: String,
    /// The query, with its leading `?`.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    query: String,
    /// The fragment, with its leading `#`.
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    fragment: String,
}

#[derive(Debug, clap::Args)]
struct DispositionArgs {
    /// Which grammar the header is held to.
    #[arg(long, default_value_t = disposition::Profile::Strict,
          value_parser = profile_parser(&disposition::Profile::ALL, disposition::Profile::as_str))]
    profile: disposition::Profile,
    /// Decode RFC 2047 encoded-words (`=?utf-8?B?...?=`) in `filename`.
    #[arg(long)]
    decode_2047: bool,
    /// Write a header value instead of parsing one.
    #[arg(long, requires = "kind")]
    format: bool,
    /// With --format: the disposition type (`attachment`, `inline`, `form-data`...).
    #[arg(long = "type", requires = "format")]
    kind: Option<String>,
    /// With --format: the filename; non-token names are quoted or written as `filename*`.
    #[arg(long, requires = "format")]
    filename: Option<String>,
    /// With --format: an extra parameter `NAME=VALUE` (repeatable).
    #[arg(long = "param", value_name = "NAME=VALUE", requires = "format")]
    params: Vec<String>,
    /// The header value to parse (without `Content-Disposition:`), as bytes: on unix any
    /// bytes (obs-text that is not UTF-8 reads as ISO-8859-1), elsewhere UTF-8 text.
    #[arg(
        required_unless_present = "format",
        conflicts_with = "format",
        allow_hyphen_values = true,
        value_parser = clap::value_parser!(std::ffi::OsString)
    )]
    header: Option<std::ffi::OsString>,
}

/// `--profile`: the core's names (`Profile::as_str`, in `Profile::ALL` order) are the possible
/// values clap lists and checks, and the core's `FromStr` turns the chosen one into a profile.
fn profile_parser<P>(
    all: &'static [P],
    name: fn(P) -> &'static str,
) -> impl TypedValueParser<Value = P>
where
    P: Copy + Send + Sync + std::str::FromStr<Err = reqparse::UnknownProfile> + 'static,
{
    PossibleValuesParser::new(all.iter().map(|&p| name(p))).try_map(|s| s.parse::<P>())
}

#[derive(Debug, clap::Args)]
struct ServeArgs {
    /// Address to listen on: IP:PORT (any interface, e.g. 0.0.0.0:9000), or HOST:PORT for a
    /// host name that resolves to a loopback address (localhost:8080: the first loopback
    /// address it resolves to is used).
    #[arg(long, default_value = "127.0.0.1:8080", value_parser = listen_addr)]
    addr: SocketAddr,
    /// Event loops (one thread each); default: one per core.
    #[arg(long)]
    threads: Option<usize>,
    /// Largest request body in bytes, after the transfer coding (default 128 MiB); a larger
    /// one is answered 413. A multipart file may be as large. Bodies stream through, so memory
    /// does not grow with it.
    #[arg(long)]
    max_body: Option<u64>,
    /// Where requests are parsed: natively, or through the WebAssembly component in wasmtime.
    #[arg(long, value_enum, default_value_t = EngineArg::Native)]
    engine: EngineArg,
    /// With --engine wasm: a component file to run instead of the one built into this binary
    /// (default: $REQPARSE_COMPONENT if set, else the built-in one).
    #[arg(long)]
    component: Option<PathBuf>,
}

/// `serve --addr`: an IP literal is taken as given; a host name only when it resolves to a
/// loopback address, and then the first one. A name can resolve to anything (and to several
/// addresses, where one listener needs one): listening on another interface is asked for with
/// its IP, never by a name that might turn out to be public.
fn listen_addr(arg: &str) -> Result<SocketAddr, String> {
    use std::net::ToSocketAddrs;
    if let Ok(addr) = arg.parse() {
        return Ok(addr);
    }
    let (host, port) = arg
        .rsplit_once(':')
        .ok_or_else(|| "expected IP:PORT or HOST:PORT (e.g. localhost:8080)".to_owned())?;
    let port: u16 = port
        .parse()
        .map_err(|_| format!("{port:?} is not a port number (0 to 65535)"))?;
    let addrs: Vec<SocketAddr> = (host, port)
        .to_socket_addrs()
        .map_err(|e| format!("cannot resolve {host:?}: {e}"))?
        .collect();
    addrs
        .iter()
        .copied()
        .find(|a| a.ip().is_loopback())
        .ok_or_else(|| {
            let ips: Vec<String> = addrs.iter().map(|a| a.ip().to_string()).collect();
            let ips = if ips.is_empty() {
                "nothing".to_owned()
            } else {
                ips.join(", ")
            };
            format!(
                "{host:?} resolves to {ips}, not a loopback address: to listen on another \
                 interface give its IP (e.g. 0.0.0.0:{port})"
            )
        })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Native,
    Wasm,
}

/// Runs one command; `Ok` is what to print on stdout, `Err` the one line for stderr.
pub fn run(args: Args) -> Result<String, String> {
    match args.command {
        Command::Query(a) => query_answer(&a),
        Command::Uri { op } => uri_answer(op),
        Command::Disposition(a) => disposition_answer(&a),
        Command::Serve(a) => serve(a).map(|()| String::new()),
        Command::Chunked(a) => chunked(&a).map(|()| String::new()),
        Command::Form(a) => form_answer(&a),
        Command::Multipart(a) => multipart_answer(&a),
        Command::Component(a) => component(&a),
    }
}

/// `reqparse component`: the bundled bytes to a file (with a one-line receipt on stdout) or to
/// stdout (with nothing else).
fn component(a: &ComponentArgs) -> Result<String, String> {
    use sha2::{Digest, Sha256};
    use std::io::Write;

    let bytes = if a.wit {
        reqparse::bundled::WIT.as_bytes()
    } else {
        reqparse::bundled::COMPONENT
    };
    if a.out.as_os_str() == "-" {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(bytes)
            .and_then(|()| stdout.flush())
            .map_err(|e| format!("I/O error: {e}"))?;
        return Ok(String::new());
    }
    // Written beside the target and renamed over it, so a reader never sees half a file.
    let tmp = a.out.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, &a.out))
        .map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            format!("cannot write {}: {e}", a.out.display())
        })?;
    let sha256 = sha256_hex(Sha256::new_with_prefix(bytes));
    Ok(format!(
        "wrote {} ({} bytes, sha256 {sha256})",
        a.out.display(),
        bytes.len()
    ))
}

/// A file, or stdin for `-`.
fn open_input(path: &std::path::Path) -> Result<Box<dyn std::io::Read>, String> {
    if path.as_os_str() == "-" {
        return Ok(Box::new(std::io::stdin().lock()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(Box::new(file))
}

/// `reqparse form`: the body through the form reader's `read_from` (one buffer: a pair that
/// straddles two reads is held until it ends, as the reader's limits cap it).
fn form_answer(a: &FormArgs) -> Result<String, String> {
    use reqparse::body::form::{FormEvent, FormReader};
    use reqparse::body::ReadError;

    let limits: FormLimits = a.limits.apply()?;
    let input = open_input(&a.input)?;
    let mut reader = FormReader::new(a.profile, limits);
    let mut pairs = Vec::new();
    reader
        .read_from(input, |event| {
            if let FormEvent::Pair(p) = event {
                pairs.push(json!([p.name, p.value]));
            }
        })
        .map_err(|e| match e {
            ReadError::Io(e) => format!("I/O error: {e}"),
            ReadError::Body(e) => format!("invalid form body: {e}"),
        })?;
    Ok(Value::Array(pairs).to_string())
}

/// A part of `reqparse multipart` while its data arrives.
struct PartSummary {
    index: usize,
    name: String,
    filename: Option<String>,
    /// The filename's other readings: as sent (escaped), its basename, a portable name.
    filename_raw: Option<String>,
    basename: Option<String>,
    portable: Option<String>,
    content_type: Option<String>,
    /// `Part::mime_type`, serialized.
    mime_type: Option<String>,
    size: u64,
    hash: sha2::Sha256,
    /// The bytes of a part without a filename (the reader's `max_value_bytes` caps them).
    value: Option<Vec<u8>>,
}

/// The digest of `hash`, in lower-case hex.
fn sha256_hex(hash: sha2::Sha256) -> String {
    use sha2::Digest;
    use std::fmt::Write;
    let mut hex = String::with_capacity(64);
    for byte in hash.finalize() {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

impl PartSummary {
    fn add(&mut self, data: &[u8]) {
        use sha2::Digest;
        self.hash.update(data);
        self.size += data.len() as u64;
        if let Some(value) = &mut self.value {
            value.extend_from_slice(data);
        }
    }

    fn into_json(self) -> Value {
        let sha256 = sha256_hex(self.hash);
        json!({
            "name": self.name,
            "filename": self.filename,
            "filename_raw": self.filename_raw,
            "basename": self.basename,
            "portable": self.portable,
            "content_type": self.content_type,
            "mime_type": self.mime_type,
            "size": self.size,
            "sha256": sha256,
            // The Fetch Standard's "UTF-8 decode without BOM": invalid bytes become U+FFFD.
            "value": self.value.map(|v| String::from_utf8_lossy(&v).into_owned()),
        })
    }
}

/// `reqparse multipart`: the body in 64 KiB reads (`MultipartReader::read_from`); each part's
/// data is hashed as it arrives, and only a value (a part without a filename) is kept whole.
fn multipart_answer(a: &MultipartArgs) -> Result<String, String> {
    use multipart::{MultipartEvent, MultipartReader, ReadError};

    let limits: MultipartLimits = a.limits.apply()?;
    let boundary = match (&a.boundary, &a.content_type) {
        (Some(b), _) => b.as_bytes(),
        (None, Some(ct)) => {
            multipart::boundary(ct.as_bytes()).map_err(|e| format!("invalid Content-Type: {e}"))?
        }
        // clap requires one of them.
        (None, None) => return Err("give --boundary or --content-type".into()),
    };
    let mut reader = MultipartReader::new(boundary, a.profile, limits)
        .map_err(|e| format!("invalid multipart boundary: {e}"))?;
    // A copy of what is read (up to HINT_BYTES), so that a refusal can say which profile
    // would read the body.
    let mut input = Keep::new(open_input(&a.input)?);
    let (mut parts, mut current) = (Vec::new(), None::<PartSummary>);
    let read = reader.read_from(&mut input, |event| match event {
        MultipartEvent::Part(p) => {
            let f = p.filename();
            let filename = f.as_ref().map(|f| f.as_str().to_owned());
            current = Some(PartSummary {
                index: p.index(),
                name: p.name().into_owned(),
                value: filename.is_none().then(Vec::new),
                filename,
                filename_raw: f.as_ref().map(|f| escaped(f.raw())),
                basename: f.as_ref().map(|f| f.basename().to_owned()),
                portable: f.as_ref().map(|f| f.portable()),
                content_type: p.content_type().map(|t| header_text(t).into_owned()),
                mime_type: p
                    .mime_type()
                    .map(|m| header_text(m.as_bytes()).into_owned()),
                size: 0,
                hash: sha2::Digest::new(),
            });
        }
        MultipartEvent::Data(data) => {
            if let Some(part) = &mut current {
                part.add(data);
            }
        }
        MultipartEvent::PartEnd => parts.extend(current.take().map(PartSummary::into_json)),
        MultipartEvent::End => {}
    });
    read.map_err(|e| match e {
        ReadError::Io(e) => format!("I/O error: {e}"),
        ReadError::Body(e) => {
            // The part the error is in, by its name when its headers were read.
            let part = match (e.part, &current) {
                (Some(i), Some(p)) if p.index == i => format!(" in part {i} ({:?})", p.name),
                (Some(i), _) => format!(" in part {i}"),
                (None, _) => String::new(),
            };
            // The CLI makes no per-part decision: a limit is always a `--limit` one.
            let hint = match e.kind {
                multipart::MultipartErrorKind::Limit(l) => {
                    Some(format!(" (raise it with --limit {}=N)", l.name()))
                }
                _ => input
                    .whole()
                    .map(|body| multipart_accepted_by(body, boundary, limits)),
            };
            format!(
                "invalid multipart body: {e}{part}{}",
                hint.unwrap_or_default()
            )
        }
    })?;
    Ok(json!({ "parts": parts }).to_string())
}

/// The most body bytes `reqparse multipart` keeps to say, after a refusal, which profile would
/// read the body; a larger body gets no hint.
const HINT_BYTES: usize = 1 << 20;

/// A reader that keeps a copy of the first [`HINT_BYTES`] it reads.
struct Keep<R> {
    inner: R,
    kept: Vec<u8>,
    over: bool,
}

impl<R: std::io::Read> Keep<R> {
    fn new(inner: R) -> Self {
        Keep {
            inner,
            kept: Vec::new(),
            over: false,
        }
    }

    /// The whole input (what was read, then the rest), when it fits in [`HINT_BYTES`].
    fn whole(&mut self) -> Option<&[u8]> {
        let mut rest = [0u8; 8192];
        while !self.over {
            match std::io::Read::read(self, &mut rest) {
                Ok(0) => return Some(&self.kept),
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        None
    }
}

impl<R: std::io::Read> std::io::Read for Keep<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let read = buf.get(..n).unwrap_or_default();
        if self.kept.len() + n <= HINT_BYTES {
            self.kept.extend_from_slice(read);
        } else {
            self.over = true;
        }
        Ok(n)
    }
}

/// The profiles that read `body` to its end, as a hint after a refusal (empty when none
/// does), as `disposition` errors give one.
fn multipart_accepted_by(
    body: &[u8],
    boundary: &[u8],
    limits: multipart::MultipartLimits,
) -> String {
    let names: Vec<String> = multipart::Profile::ALL
        .into_iter()
        .filter(|&p| {
            multipart::MultipartReader::new(boundary, p, limits)
                .is_ok_and(|mut r| r.read_from(body, |_| {}).is_ok())
        })
        .map(|p| format!("--profile {p}"))
        .collect();
    match names.is_empty() {
        true => String::new(),
        false => format!(" (accepted with {})", names.join(" or ")),
    }
}

/// `reqparse chunked`: reads the body through the decoder's `read_from` and writes the data as
/// it is decoded; only an incomplete chunk line is ever held back (the decoder's limits bound
/// it).
fn chunked(a: &ChunkedArgs) -> Result<(), String> {
    use reqparse::body::chunked::{Chunk, ChunkedDecoder};
    use reqparse::body::ReadError;
    use sha2::Digest;
    use std::io::Write;

    let io = |e: std::io::Error| format!("I/O error: {e}");
    let mut decoder = ChunkedDecoder::new(a.limits.apply()?);
    let mut input = open_input(&a.input)?;
    // Where the data goes: stdout, or with --trailers the --out file (or nowhere), stdout
    // then being the JSON's.
    let mut sink: Box<dyn Write> = match (&a.out, a.trailers) {
        (Some(path), _) if path.as_os_str() != "-" => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        (_, true) => Box::new(std::io::sink()),
        (_, false) => Box::new(std::io::stdout().lock()),
    };
    let (mut hash, mut size) = (sha2::Sha256::new(), 0u64);
    let mut trailers = Vec::new();
    // The first failed write: the rest of the body is then read, not written.
    let mut written = Ok(());
    let after = decoder.read_from(&mut input, |chunk| match chunk {
        Chunk::Data(data) => {
            hash.update(data);
            size += data.len() as u64;
            if written.is_ok() {
                written = sink.write_all(data);
            }
        }
        Chunk::End => {}
        Chunk::Trailer { name, value } => {
            trailers.push(json!([lossless(name), header_text(value)]))
        }
    });
    let after = after.map_err(|e| match e {
        ReadError::Io(e) => io(e),
        ReadError::Body(e) => format!("invalid chunked body: {e}"),
    })?;
    written.map_err(io)?;
    sink.flush().map_err(io)?;
    // What follows the body is another message's (RFC 9112 §9.3), perhaps a smuggled one:
    // a file that holds one body must end with it (`read_from` stops at the body's end).
    if after > 0 || input.read(&mut [0u8; 1]).map_err(io)? > 0 {
        let at = decoder.position();
        return Err(format!(
            "bytes after the end of the chunked body at byte {at}"
        ));
    }
    if a.trailers {
        let summary = json!({ "size": size, "sha256": sha256_hex(hash), "trailers": trailers });
        let mut stdout = std::io::stdout().lock();
        writeln!(stdout, "{summary}").map_err(io)?;
    }
    Ok(())
}

fn query_answer(a: &QueryArgs) -> Result<String, String> {
    let profile = a.profile;
    let err = |e: query::QueryError| format!("invalid query: {e}");
    if a.map {
        let options = query::MapOptions {
            profile,
            ignore_case: a.ignore_case,
            ..query::MapOptions::default()
        };
        let map = query::QueryMap::parse(&a.query, options).map_err(err)?;
        let mut object = Map::new();
        for (name, values) in map.iter() {
            object.insert(name.to_owned(), values.map(Value::from).collect());
        }
        return Ok(Value::Object(object).to_string());
    }
    let mut pairs = Vec::new();
    for pair in query::pairs(&a.query) {
        let (name, value) = if a.raw {
            (lossless(pair.name()), lossless(pair.value()))
        } else {
            (
                pair.decode_name(profile).map_err(err)?,
                pair.decode_value(profile).map_err(err)?,
            )
        };
        pairs.push(json!([name, value]));
    }
    Ok(Value::Array(pairs).to_string())
}

/// Raw pairs are slices of a `&str` cut at ASCII delimiters, so they are UTF-8; the lossy
/// conversion never replaces anything and only avoids an `unwrap`.
/// A header field value's bytes as text: UTF-8 when they are, else ISO-8859-1 (obs-text,
/// RFC 9110 §5.5), the rule the Content-Disposition parser follows too.
fn header_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Bytes as text that says each byte: printable ASCII as is, every other byte (and `\\`) as a
/// `\\xHH` escape, so that bytes of any encoding survive into JSON unchanged.
fn escaped(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        if (0x20..0x7f).contains(&b) && b != b'\\' {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "\\x{b:02x}");
        }
    }
    out
}

fn lossless(bytes: &[u8]) -> Cow<'_, str> {
    String::from_utf8_lossy(bytes)
}

fn uri_answer(op: UriOp) -> Result<String, String> {
    match op {
        UriOp::Build { scheme, host, rest } => uri::build_absolute(
            &scheme,
            &host,
            &rest.path_base,
            &rest.path,
            &rest.query,
            &rest.fragment,
        )
        .map_err(|e| format!("cannot build URI: {e}")),
        UriOp::Relative { rest } => Ok(uri::build_relative(
            &rest.path_base,
            &rest.path,
            &rest.query,
            &rest.fragment,
        )),
        UriOp::Split { uri } => {
            let parts = uri::split_absolute(&uri).map_err(|e| format!("invalid URI: {e}"))?;
            Ok(json!({
                "scheme": parts.scheme,
                "host": parts.host,
                "path": parts.path,
                "query": parts.query,
                "fragment": parts.fragment,
            })
            .to_string())
        }
    }
}

fn disposition_answer(a: &DispositionArgs) -> Result<String, String> {
    if a.format {
        return format_disposition(a);
    }
    let profile = a.profile;
    let header = header_bytes(a.header.as_deref().unwrap_or_default())?;
    let parsed = disposition::ContentDisposition::parse(&header, profile)
        .map_err(|e| format!("invalid Content-Disposition: {e}{}", accepted_by(&header)))?;
    let filename = parsed.filename_with(disposition::FilenameOptions {
        decode_2047: a.decode_2047,
    });
    let parameters: Vec<Value> = parsed
        .params()
        .map(|p| json!([p.name().to_ascii_lowercase(), p.value()]))
        .collect();
    Ok(json!({
        "type": parsed.disposition_type().to_ascii_lowercase(),
        "filename": filename,
        "parameters": parameters,
    })
    .to_string())
}

/// What would accept a header the chosen profile refused: the profiles that parse it, as a
/// hint after the error (empty when none does).
fn accepted_by(header: &[u8]) -> String {
    let names: Vec<String> = disposition::Profile::ALL
        .into_iter()
        .filter(|&p| disposition::ContentDisposition::parse(header, p).is_ok())
        .map(|p| format!("--profile {p}"))
        .collect();
    match names.is_empty() {
        true => String::new(),
        false => format!(" (accepted with {})", names.join(" or ")),
    }
}

/// A header argument's bytes: on unix exactly what was passed.
#[cfg(unix)]
fn header_bytes(arg: &std::ffi::OsStr) -> Result<Cow<'_, [u8]>, String> {
    Ok(Cow::Borrowed(std::os::unix::ffi::OsStrExt::as_bytes(arg)))
}

/// Elsewhere an argument is text, so only UTF-8 headers can be passed.
#[cfg(not(unix))]
fn header_bytes(arg: &std::ffi::OsStr) -> Result<Cow<'_, [u8]>, String> {
    arg.to_str()
        .map(|s| Cow::Borrowed(s.as_bytes()))
        .ok_or_else(|| "the header is not UTF-8 (only unix passes other bytes)".to_owned())
}

fn format_disposition(a: &DispositionArgs) -> Result<String, String> {
    let kind = a.kind.as_deref().unwrap_or_default();
    let mut builder = disposition::DispositionBuilder::new(kind);
    if let Some(name) = &a.filename {
        builder = builder.filename(name);
    }
    for param in &a.params {
        let (name, value) = param
            .split_once('=')
            .ok_or_else(|| format!("--param {param:?} is not NAME=VALUE"))?;
        builder = builder.param(name, value);
    }
    builder
        .build()
        .map_err(|e| format!("cannot format Content-Disposition: {e}"))
}

fn serve(a: ServeArgs) -> Result<(), String> {
    // Before the wasm engine starts wasmtime's threads: they must inherit the mask, or they
    // take SIGINT/SIGTERM instead of the server's signal thread (see `block_stop_signals`).
    reqparse::host::block_stop_signals().map_err(|e| format!("serve: {e}"))?;
    let mut config = reqparse::host::Config {
        addr: a.addr,
        ..reqparse::host::Config::default()
    };
    if let Some(threads) = a.threads {
        config.threads = threads;
    }
    if let Some(max_body) = a.max_body {
        // One number for every body-size limit: the readers' follow it, and so does a
        // multipart file's (`max_file_bytes`, 128 MiB by default, would otherwise refuse a
        // larger upload that --max-body lets in).
        config.limits.max_body = max_body;
        config.limits.multipart.max_file_bytes = max_body;
    }
    config.engine = match a.engine {
        EngineArg::Native => reqparse::host::Engine::Native,
        EngineArg::Wasm => wasm_engine(a.component.as_deref())?,
    };
    // Bind errors name the address themselves (`cannot listen on ADDR: ...`).
    reqparse::host::serve(config).map_err(|e| format!("serve: {e}"))
}

#[cfg(feature = "engine-wasm")]
fn wasm_engine(component: Option<&std::path::Path>) -> Result<reqparse::host::Engine, String> {
    let engine = reqparse::engine::WasmEngine::load(component)
        .map_err(|e| format!("cannot load the component: {e:#}"))?;
    Ok(reqparse::host::Engine::Wasm(engine))
}

#[cfg(not(feature = "engine-wasm"))]
fn wasm_engine(_: Option<&std::path::Path>) -> Result<reqparse::host::Engine, String> {
    Err("this build has no wasm engine: rebuild with `--features cli,engine-wasm`".into())
}
