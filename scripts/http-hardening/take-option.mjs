// The scripts' `--name value` options: takes one out of the argument list (so what remains is
// the positional arguments), or gives the fallback when it is absent.
export function takeOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [value] = args.splice(at, 2).slice(1);
  return value;
}
