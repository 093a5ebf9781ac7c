// The tour's chapters on what is sent unasked while a request runs (tour-chapters.ts lists
// them): progress notifications, a cancellation, and a subscription's notification.
import type { TourSession } from './tour-session.js';
import { lastSentId, notifications, openSession, parsed, positionOf, requestStep, type Chapter } from './tour-steps.js';

export const progress: Chapter = {
  name: 'progress',
  title: 'progress and cancellation',
  intro: [
    "A client that wants progress puts a progressToken in the request's _meta; it can stop a request with",
    'notifications/cancelled. Both are notifications: never answered.',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'bulk_update_status on three issues, with a progressToken: one notifications/progress per issue (protocol/context.ts: progress()).',
      'tools/call',
      {
        name: 'bulk_update_status',
        arguments: { keys: ['PROJ-104', 'PROJ-106', 'PROJ-108'], status: 'in_progress' },
        _meta: { progressToken: 'tour-progress' },
      },
      (events) => {
        const sent = notifications(events, 'notifications/progress');
        const last = events.findLastIndex((e) => e.direction === 'received' && parsed(e).method === 'notifications/progress');
        const answer = positionOf(events, (m) => 'result' in m);
        const order = last < answer ? 'all of them before the result' : 'one after the result (a bug: rule A-19 forbids it)';
        return [`${sent.length} progress notifications, ${order}; none may follow the answer.`];
      },
    );
    await cancelStep(tour);
  },
};

// Three issues in todo, moved to in_progress: a move every workflow of the tracker allows.
// The long run repeats the demo issues; a move an issue's status refuses is reported in the
// result, and counts for progress like any other.
const MANY_KEYS = Array.from({ length: 400 }, (_, index) => `PROJ-${101 + (index % 14)}`);

async function cancelStep(tour: TourSession): Promise<void> {
  let answered = true;
  await tour.step(
    'A long bulk_update_status; the client sends notifications/cancelled as soon as the first progress arrives, and the server stops (protocol/peer.ts: cancel()); a ping shows the session goes on. The wire below is in the order messages crossed it: progress the server sent while the client reacted shows before the cancel.',
    async () => {
      const from = tour.mark;
      const call = tour.client
        .request(
          'tools/call',
          {
            name: 'bulk_update_status',
            arguments: { keys: MANY_KEYS, status: 'in_progress' },
            _meta: { progressToken: 'tour-cancel' },
          },
          1500,
        )
        .catch(() => (answered = false));
      await tour.waitFor(from, (m) => m.method === 'notifications/progress', 3000);
      const id = lastSentId(tour.wireSince(from));
      tour.client.notify('notifications/cancelled', { requestId: id, reason: 'the user pressed stop' });
      await call;
      await tour.client.request('ping');
    },
    (events) => {
      const cancel = events.findIndex((e) => e.direction === 'sent' && parsed(e).method === 'notifications/cancelled');
      const before = notifications(events.slice(0, cancel), 'notifications/progress').length;
      const crossed = notifications(events.slice(cancel), 'notifications/progress').length;
      return [
        `${before} progress notification(s) arrived before the cancel left: the first one made the client cancel, the server sent the others meanwhile.`,
        answered
          ? 'The result was already on its way when the cancel left: a client must expect that and ignore it.'
          : 'No response for the cancelled id: the server dropped it (protocol/peer.ts: answer()), and answered the ping.',
        ...(crossed > 0
          ? [`${crossed} progress notification(s) crossed the cancel on the wire, sent before the server read it.`]
          : []),
      ];
    },
  );
}

export const subscriptions: Chapter = {
  name: 'subscriptions',
  title: 'a subscription and its notification',
  intro: [
    'A client subscribes to a resource; when what it returns changes, the server sends notifications/resources/updated',
    'with the URI, and the client reads it again. The order below is the order the lines arrived in.',
  ],
  async run(tour) {
    await openSession(tour);
    await requestStep(
      tour,
      'resources/subscribe to jira://issue/PROJ-101 (protocol/subscriptions.ts: createSubscriptionRegistry()).',
      'resources/subscribe',
      { uri: 'jira://issue/PROJ-101' },
    );
    await tour.step(
      'add_comment on PROJ-101 changes what that URI returns: the store reports the change (lib/tracker/server.ts: connect()), the watch finds the subscribed URIs whose content moved (lib/tracker/resource-watch.ts: changedBy()), and each session tells its subscribers (protocol/session.ts: resourceUpdated()).',
      () =>
        Promise.all([
          tour.client.request('tools/call', {
            name: 'add_comment',
            arguments: { key: 'PROJ-101', body: 'Seen on the tour.' },
          }),
          tour.client.nextNotification('notifications/resources/updated', 3000),
        ]),
      (events) => {
        const notice = positionOf(events, (m) => m.method === 'notifications/resources/updated');
        const answer = positionOf(events, (m) => 'result' in m);
        return [
          notice < answer
            ? 'The notification arrived BEFORE the tool result: the store reports a change while the tool is still running, and the result is sent when the tool returns.'
            : 'The notification arrived AFTER the tool result: the change was announced once the tool had answered.',
        ];
      },
    );
  },
};
