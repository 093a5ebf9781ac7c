// The tour's chapter on the 2026-07-28 era (tour-chapters.ts lists it): a request that needs no
// session, and one that asks the client a question in a second round trip.
import { meta2026, notifications, requestStep, resultOf, type Chapter, type Message } from './tour-steps.js';

export const era2026: Chapter = {
  name: 'era2026',
  title: 'the 2026-07-28 era: discover and a multi round-trip request',
  intro: [
    'A 2026-07-28 request carries its version and capabilities in _meta and needs no session: the same connection',
    'serves both eras, request by request (protocol/era-router.ts: createEraRouter()).',
  ],
  async run(tour) {
    await requestStep(
      tour,
      'server/discover: what initialize told, as a cacheable answer (protocol/stateless.ts: completeResult() adds resultType and cache hints).',
      'server/discover',
      { _meta: meta2026() },
      (events) => [
        `resultType ${String(resultOf(events).resultType)}; supported: ${JSON.stringify(resultOf(events).supportedVersions)}.`,
      ],
    );
    const first = await requestStep(
      tour,
      'create_issue without a title, from a client that can show a form: the server does not send a request, it answers input_required with the question and a sealed requestState (protocol/asking.ts: runAsking()).',
      'tools/call',
      {
        name: 'create_issue',
        arguments: { project: 'PROJ' },
        _meta: meta2026({ elicitation: { form: {} } }),
      },
      (events) => [
        `resultType ${String(resultOf(events).resultType)}, asking under: ${Object.keys((resultOf(events).inputRequests ?? {}) as Message).join(', ')}.`,
      ],
    );
    const asked = resultOf(first);
    const key = Object.keys((asked.inputRequests ?? {}) as Message)[0] ?? '';
    await requestStep(
      tour,
      'The client asks its user, then calls again, a new request, with the answer and the requestState back unchanged (protocol/mrtr.ts: createRounds()).',
      'tools/call',
      {
        name: 'create_issue',
        arguments: { project: 'PROJ' },
        inputResponses: { [key]: { action: 'accept', content: { title: 'Filed during the tour' } } },
        requestState: asked.requestState,
        _meta: meta2026({ elicitation: { form: {} } }),
      },
      (events) => {
        const result = resultOf(events);
        const issue = ((result.structuredContent ?? {}) as Message).issue as Message | undefined;
        const listChanged = notifications(events, 'notifications/resources/list_changed').length > 0;
        return [
          `resultType ${String(result.resultType)}, isError ${String(result.isError ?? false)}: created ${String(issue?.key)}.`,
          ...(listChanged
            ? [
                'notifications/resources/list_changed went to the handshake-era session on this connection: a new issue is a new resource.',
              ]
            : []),
        ];
      },
    );
  },
};
