use alloc::borrow::Cow;
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Filename<'a> { value: Cow<'a, str>, raw: &'a [u8] }
impl<'a> Filename<'a> {
    pub(super) fn new(value: Cow<'a, str>, raw: &'a [u8]) -> Self { Filename { value, raw } }
    pub fn as_str(&self) -> &str { &self.value }
    pub fn basename(&self) -> &str { &self.value }
    pub fn raw(&self) -> &'a [u8] { self.raw }
}
