// Runs tasks a few at a time (each fixture mostly waits on its server) and hands results
// back in the original order, so the report reads the same however the timing falls. Tasks
// start by `rank`, lowest first and in their order within a rank: a long one first, so that the
// others run beside it instead of all waiting for the last one at the end.
export async function runInOrder<Input, Output>(
  inputs: Input[],
  concurrency: number,
  work: (input: Input) => Promise<Output>,
  onResult: (output: Output) => void,
  rank: (input: Input) => number = () => 0,
): Promise<Output[]> {
  const settle: ((output: Output) => void)[] = [];
  const results = inputs.map(() => new Promise<Output>((resolve) => settle.push(resolve)));
  const ranks = inputs.map(rank);
  const startOrder = inputs.map((_, index) => index).sort((left, right) => (ranks[left] as number) - (ranks[right] as number));
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
