pub struct WritePart; pub struct WriteError; pub fn write() {} pub fn write_into() {} pub fn written_len() {}
