import { Component } from "preact";

/** hit: outlined by an analysis shown on the view; dim: not part of it. */
type Mark = "hit" | "dim" | undefined;
type Props = { id: string; html: string; dx: number; dy: number; label: string; mark?: Mark };

/**
 * One node as the server's renderer draws it (escaped markup from the shared renderer), moved by a transform while
 * it is dragged. Re-renders only when its markup or offset changes, so a drag on a large view touches few nodes.
 */
export class NodeView extends Component<Props> {
  override shouldComponentUpdate(next: Props): boolean {
    const p = this.props;
    return (
      next.html !== p.html || next.dx !== p.dx || next.dy !== p.dy || next.label !== p.label || next.mark !== p.mark
    );
  }
  override render() {
    const { id, html, dx, dy, label, mark } = this.props;
    return (
      <g
        data-node-id={id}
        data-label={label}
        data-mark={mark}
        transform={dx || dy ? `translate(${dx} ${dy})` : undefined}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    );
  }
}

type ConnectionProps = { id: string; html: string };

export class ConnectionView extends Component<ConnectionProps> {
  override shouldComponentUpdate(next: ConnectionProps): boolean {
    return next.html !== this.props.html;
  }
  override render() {
    return <g data-conn-id={this.props.id} dangerouslySetInnerHTML={{ __html: this.props.html }} />;
  }
}
