import { isLeft, isRight } from 'fp-ts/Either';
import { decodeTeamRecord, isUnknownVersion } from '@teamlog/events';

const queuedV1 = {
  version: 1,
  teamId: 'lead-1',
  message: {
    id: 'team-message-1',
    senderId: 'lead-1',
    senderName: 'lead',
    targetId: 'child-a',
    delivery: 'quiet',
    content: [{ type: 'text', text: 'hi' }],
  },
};

describe('team records', () => {
  it('normalise a version 1 queued message to version 2, keeping delivery and the source version', () => {
    const decoded = decodeTeamRecord('team/message/queued', queuedV1);
    expect(isRight(decoded) && decoded.right).toEqual({
      type: 'team/message/queued',
      data: { version: 2, teamId: 'lead-1', message: queuedV1.message, sourceVersion: 1 },
    });
  });

  it('refuse delivery on a version 2 queued message', () => {
    const decoded = decodeTeamRecord('team/message/queued', { ...queuedV1, version: 2 });
    expect(isLeft(decoded) && decoded.left.message).toBe(
      'data.message.delivery: unexpected key "delivery" (not part of TeamMessageSnapshotV2)',
    );
  });

  it('refuse offloaded images in Team content (docs/rules.md#team-content-strict)', () => {
    const message = {
      ...queuedV1.message,
      content: [
        {
          type: 'image',
          offloaded: true,
          attachment: { attachmentId: 'a', mediaType: 'image/png', bytes: 1, width: 1, height: 1 },
        },
      ],
    };
    const decoded = decodeTeamRecord('team/message/queued', { ...queuedV1, message });
    expect(isLeft(decoded) && decoded.left.path).toBe('data.message.content[0].offloaded');
  });

  it('report an unknown version as unsupported', () => {
    const decoded = decodeTeamRecord('team/member', { version: 7, teamId: 'lead-1' });
    expect(isLeft(decoded) && isUnknownVersion(decoded.left, 'UnsupportedTeamRecordVersion')).toBe(true);
  });
});
