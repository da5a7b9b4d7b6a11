// The floor of `list`: the smallest Deno program that prints something.
console.log("hello");
