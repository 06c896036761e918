//! What a batch becomes on its way to a GPU: modules to load and kernels to
//! launch ([`ModuleRun`]), the messages between the fuzz loop and a GPU
//! runner process ([`crate::runner`]), and their encoding on a pipe.
//!
//! The encoding is little-endian and length-prefixed: a `u64` is 8 bytes, a
//! byte string its `u64` length then its bytes, a list its `u64` count then
//! its items. Every message starts with a tag byte. The reader bounds every
//! length it reads, so a confused peer gives an error, never an allocation
//! of gigabytes.

use std::io::{self, Read, Write};

/// The most bytes one string, image or word list of a message may have
/// (a batch of 16,384 generated programs stays far below it).
const MAX_BYTES: u64 = 1 << 31;

/// How a module reaches the GPU.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Image {
    /// A cubin compiled beforehand (by the compile helpers).
    Cubin(Vec<u8>),
    /// PTX text, compiled by the driver of the process that loads it, at
    /// this optimisation level (`None`: the driver's default).
    Ptx {
        /// The module's text.
        text: String,
        /// `CU_JIT_OPTIMIZATION_LEVEL`, 0–4.
        opt_level: Option<u32>,
    },
    /// The simulated GPU of fault-injection builds: each job as a `.ptx`
    /// case text, kernel by kernel and block by block, which the simulated
    /// runner runs on the reference interpreter.
    Sim(Vec<String>),
}

/// One kernel launch of a module: `warps` blocks of one warp, reading and
/// writing their words from these offsets (in `u64` words) of the module's
/// input and output buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelRun {
    /// The `.entry` name.
    pub name: String,
    /// Blocks (one warp, one job each).
    pub warps: u32,
    /// Where its jobs' input words start.
    pub in_off: u64,
    /// Where its jobs' output words start.
    pub out_off: u64,
    /// Output words per job.
    pub out_words: u64,
}

/// A module of a batch, ready to run anywhere: its image, its launches and
/// its buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleRun {
    /// The code.
    pub image: Image,
    /// Every kernel launch, in order.
    pub kernels: Vec<KernelRun>,
    /// The input buffer.
    pub input: Vec<u64>,
    /// The size of the output buffer, in words.
    pub out_words: u64,
}

/// The first message of a runner: what it runs on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hello {
    /// `NVIDIA H200 (sm_90, CUDA driver 13.0, ...)`.
    pub description: String,
}

/// A request to a runner: run these modules, wait at most `deadline_ms`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The batch's number in the run (1-based), for the simulated GPU's
    /// rules.
    pub seq: u64,
    /// How long the kernels may run before they count as hung.
    pub deadline_ms: u64,
    /// The modules.
    pub modules: Vec<ModuleRun>,
}

/// How a runner's batch ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// It ran: per module, its output words, or why it could not be loaded
    /// or launched (the other modules ran).
    Ran(Vec<Result<Vec<u64>, String>>),
    /// Kernels were still running at the deadline. The runner exits: a hung
    /// kernel cannot be stopped, and only the end of its process frees the
    /// GPU from it.
    Hang(String),
    /// A kernel faulted (`CUDA_ERROR_ILLEGAL_INSTRUCTION`, ...). The runner
    /// exits: the error is sticky, its context unusable.
    Fault(String),
}

fn put_u64(w: &mut Vec<u8>, v: u64) {
    w.extend(v.to_le_bytes());
}

fn put_bytes(w: &mut Vec<u8>, b: &[u8]) {
    put_u64(w, b.len() as u64);
    w.extend(b);
}

fn put_words(w: &mut Vec<u8>, words: &[u64]) {
    put_u64(w, words.len() as u64);
    for &x in words {
        put_u64(w, x);
    }
}

fn get_u64(r: &mut impl Read) -> io::Result<u64> {
    let mut b = [0u8; 8];
    r.read_exact(&mut b)?;
    Ok(u64::from_le_bytes(b))
}

fn get_u8(r: &mut impl Read) -> io::Result<u8> {
    let mut b = [0u8; 1];
    r.read_exact(&mut b)?;
    Ok(b[0])
}

fn bad(what: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.into())
}

fn get_len(r: &mut impl Read, unit: u64) -> io::Result<usize> {
    let n = get_u64(r)?;
    if n.saturating_mul(unit) > MAX_BYTES {
        return Err(bad(format!(
            "a length of {n} items in a GPU runner message"
        )));
    }
    Ok(n as usize)
}

fn get_bytes(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let n = get_len(r, 1)?;
    let mut b = vec![0u8; n];
    r.read_exact(&mut b)?;
    Ok(b)
}

fn get_string(r: &mut impl Read) -> io::Result<String> {
    String::from_utf8(get_bytes(r)?).map_err(|_| bad("text that is not UTF-8"))
}

fn get_words(r: &mut impl Read) -> io::Result<Vec<u64>> {
    let n = get_len(r, 8)?;
    let mut b = vec![0u8; n * 8];
    r.read_exact(&mut b)?;
    Ok(b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect())
}

fn put_image(w: &mut Vec<u8>, image: &Image) {
    match image {
        Image::Cubin(b) => {
            w.push(0);
            put_bytes(w, b);
        }
        Image::Ptx { text, opt_level } => {
            w.push(1);
            put_bytes(w, text.as_bytes());
            put_u64(w, opt_level.map_or(u64::MAX, u64::from));
        }
        Image::Sim(cases) => {
            w.push(2);
            put_u64(w, cases.len() as u64);
            for c in cases {
                put_bytes(w, c.as_bytes());
            }
        }
    }
}

fn get_image(r: &mut impl Read) -> io::Result<Image> {
    Ok(match get_u8(r)? {
        0 => Image::Cubin(get_bytes(r)?),
        1 => {
            let text = get_string(r)?;
            let opt = get_u64(r)?;
            Image::Ptx {
                text,
                opt_level: (opt != u64::MAX).then_some(opt as u32),
            }
        }
        2 => {
            let n = get_len(r, 64)?;
            Image::Sim((0..n).map(|_| get_string(r)).collect::<io::Result<_>>()?)
        }
        t => return Err(bad(format!("image tag {t}"))),
    })
}

impl Hello {
    /// Writes it (one flush).
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        let mut b = vec![b'H'];
        put_bytes(&mut b, self.description.as_bytes());
        w.write_all(&b)?;
        w.flush()
    }

    /// Reads one.
    pub fn read(r: &mut impl Read) -> io::Result<Hello> {
        match get_u8(r)? {
            b'H' => Ok(Hello {
                description: get_string(r)?,
            }),
            t => Err(bad(format!("a GPU runner's first message has tag {t}"))),
        }
    }
}

impl Request {
    /// Writes it (one flush).
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        let mut b = vec![b'R'];
        put_u64(&mut b, self.seq);
        put_u64(&mut b, self.deadline_ms);
        put_u64(&mut b, self.modules.len() as u64);
        for m in &self.modules {
            put_image(&mut b, &m.image);
            put_u64(&mut b, m.kernels.len() as u64);
            for k in &m.kernels {
                put_bytes(&mut b, k.name.as_bytes());
                put_u64(&mut b, u64::from(k.warps));
                put_u64(&mut b, k.in_off);
                put_u64(&mut b, k.out_off);
                put_u64(&mut b, k.out_words);
            }
            put_words(&mut b, &m.input);
            put_u64(&mut b, m.out_words);
        }
        w.write_all(&b)?;
        w.flush()
    }

    /// Reads one; `Ok(None)` at the end of the stream (the parent closed
    /// the pipe).
    pub fn read(r: &mut impl Read) -> io::Result<Option<Request>> {
        let mut tag = [0u8; 1];
        if r.read(&mut tag)? == 0 {
            return Ok(None);
        }
        if tag[0] != b'R' {
            return Err(bad(format!("a request with tag {}", tag[0])));
        }
        let seq = get_u64(r)?;
        let deadline_ms = get_u64(r)?;
        let n = get_len(r, 64)?;
        let mut modules = Vec::with_capacity(n);
        for _ in 0..n {
            let image = get_image(r)?;
            let nk = get_len(r, 64)?;
            let mut kernels = Vec::with_capacity(nk);
            for _ in 0..nk {
                kernels.push(KernelRun {
                    name: get_string(r)?,
                    warps: u32::try_from(get_u64(r)?).map_err(|_| bad("a block count"))?,
                    in_off: get_u64(r)?,
                    out_off: get_u64(r)?,
                    out_words: get_u64(r)?,
                });
            }
            let input = get_words(r)?;
            let out_words = get_u64(r)?;
            if out_words.saturating_mul(8) > MAX_BYTES {
                return Err(bad(format!("an output buffer of {out_words} words")));
            }
            modules.push(ModuleRun {
                image,
                kernels,
                input,
                out_words,
            });
        }
        Ok(Some(Request {
            seq,
            deadline_ms,
            modules,
        }))
    }
}

impl Reply {
    /// Writes it (one flush).
    pub fn write(&self, w: &mut impl Write) -> io::Result<()> {
        let mut b = Vec::new();
        match self {
            Reply::Ran(results) => {
                b.push(b'O');
                put_u64(&mut b, results.len() as u64);
                for r in results {
                    match r {
                        Ok(words) => {
                            b.push(0);
                            put_words(&mut b, words);
                        }
                        Err(m) => {
                            b.push(1);
                            put_bytes(&mut b, m.as_bytes());
                        }
                    }
                }
            }
            Reply::Hang(m) => {
                b.push(b'h');
                put_bytes(&mut b, m.as_bytes());
            }
            Reply::Fault(m) => {
                b.push(b'f');
                put_bytes(&mut b, m.as_bytes());
            }
        }
        w.write_all(&b)?;
        w.flush()
    }

    /// Reads one.
    pub fn read(r: &mut impl Read) -> io::Result<Reply> {
        Ok(match get_u8(r)? {
            b'O' => {
                let n = get_len(r, 64)?;
                let mut out = Vec::with_capacity(n);
                for _ in 0..n {
                    out.push(match get_u8(r)? {
                        0 => Ok(get_words(r)?),
                        1 => Err(get_string(r)?),
                        t => return Err(bad(format!("a module result with tag {t}"))),
                    });
                }
                Reply::Ran(out)
            }
            b'h' => Reply::Hang(get_string(r)?),
            b'f' => Reply::Fault(get_string(r)?),
            t => return Err(bad(format!("a reply with tag {t}"))),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_read_back_as_written() {
        let req = Request {
            seq: 7,
            deadline_ms: 1500,
            modules: vec![
                ModuleRun {
                    image: Image::Cubin(vec![1, 2, 3]),
                    kernels: vec![KernelRun {
                        name: "k0".into(),
                        warps: 3,
                        in_off: 0,
                        out_off: 64,
                        out_words: 96,
                    }],
                    input: vec![u64::MAX, 0, 5],
                    out_words: 352,
                },
                ModuleRun {
                    image: Image::Ptx {
                        text: ".version 7.8".into(),
                        opt_level: Some(3),
                    },
                    kernels: vec![],
                    input: vec![],
                    out_words: 1,
                },
                ModuleRun {
                    image: Image::Sim(vec!["a".into(), "bc".into()]),
                    kernels: vec![],
                    input: vec![9],
                    out_words: 2,
                },
            ],
        };
        let mut b = Vec::new();
        req.write(&mut b).unwrap();
        let mut r = &b[..];
        assert_eq!(Request::read(&mut r).unwrap(), Some(req));
        assert_eq!(
            Request::read(&mut r).unwrap(),
            None,
            "the end of the stream"
        );
        for reply in [
            Reply::Ran(vec![Ok(vec![1, 2]), Err("refused".into())]),
            Reply::Hang("h".into()),
            Reply::Fault("f".into()),
        ] {
            let mut b = Vec::new();
            reply.write(&mut b).unwrap();
            assert_eq!(Reply::read(&mut &b[..]).unwrap(), reply);
        }
        let hello = Hello {
            description: "NVIDIA H200".into(),
        };
        let mut b = Vec::new();
        hello.write(&mut b).unwrap();
        assert_eq!(Hello::read(&mut &b[..]).unwrap(), hello);
    }

    #[test]
    fn a_huge_length_is_an_error_not_an_allocation() {
        let mut b = vec![b'O'];
        put_u64(&mut b, 1);
        b.push(0);
        put_u64(&mut b, u64::MAX / 2);
        let e = Reply::read(&mut &b[..]).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData, "{e}");
    }
}
