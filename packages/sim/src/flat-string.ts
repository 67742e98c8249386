// A string V8 holds as one sequential block. A template literal or `+` makes a rope (a tree of
// 32-byte cons cells over the parts) that stays a rope until something reads it whole; the world
// keeps millions of such names and addresses, and at 10M listings the ropes alone were ~270 bytes
// per stay (issue 22). Decoding the string's UTF-8 makes a fresh flat copy (one byte per
// character when it fits Latin-1), the same text.
export function flatString(s: string): string {
  return s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8');
}
