// Runs tasks a few at a time (each fixture mostly waits on its server) and hands results
// back in the original order, so the report reads the same however the timing falls. Tasks
// marked `long` start first, so that the others run beside them instead of all waiting for
// the last one at the end.
export async function runInOrder<Input, Output>(
  inputs: Input[],
  concurrency: number,
  work: (input: Input) => Promise<Output>,
  onResult: (output: Output) => void,
  long: (input: Input) => boolean = () => false,
): Promise<Output[]> {
  const settle: ((output: Output) => void)[] = [];
  const results = inputs.map(() => new Promise<Output>((resolve) => settle.push(resolve)));
  const indexes = inputs.map((_, index) => index);
  const startOrder = [
    ...indexes.filter((index) => long(inputs[index] as Input)),
    ...indexes.filter((index) => !long(inputs[index] as Input)),
  ];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < startOrder.length) {
      const index = startOrder[next] as number;
      next += 1;
      settle[index]?.(await work(inputs[index] as Input));
    }
  };
  const workers = Array.from({ length: Math.max(1, Math.min(concurrency, inputs.length)) }, worker);
  const outputs: Output[] = [];
  for (const result of results) {
    const output = await result;
    onResult(output);
    outputs.push(output);
  }
  await Promise.all(workers);
  return outputs;
}
