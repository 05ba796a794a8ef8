#!/usr/bin/env python3
"""Extracts the part of Discord's OpenAPI spec that the end-to-end test needs.

Source: Discord's official HTTP API specification, repository discord/discord-api-spec, file
specs/openapi.json (MIT licence, copyright Discord; the licence text is kept beside the output as
tests/data/discord/LICENSE). Usage:

    python3 tests/fake_discord/extract_spec.py PATH/TO/openapi.json > tests/data/discord/openapi-subset.json

Keeps the operations the bot calls (below) and every schema they reference, transitively. The
gateway events the bot relies on (READY, GUILD_CREATE, INTERACTION_CREATE: commands, buttons and
menus, in channels and in threads) are not part of the HTTP specification.
"""
import json
import sys

OPERATIONS = {
    "/gateway": ["get"],
    "/oauth2/applications/@me": ["get"],
    "/users/@me": ["get"],
    "/users/@me/channels": ["post"],
    "/applications/{application_id}/commands": ["put"],
    "/applications/{application_id}/guilds/{guild_id}/commands": ["put"],
    "/interactions/{interaction_id}/{interaction_token}/callback": ["post"],
    "/webhooks/{webhook_id}/{webhook_token}": ["post"],
    "/webhooks/{webhook_id}/{webhook_token}/messages/@original": ["get", "patch", "delete"],
    "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}": ["get", "patch", "delete"],
    "/channels/{channel_id}/messages": ["post"],
    "/channels/{channel_id}/messages/{message_id}": ["get", "patch"],
    # A thread per game: opened from the challenge's message (or on its own), players added,
    # archived at the end.
    "/channels/{channel_id}/messages/{message_id}/threads": ["post"],
    "/channels/{channel_id}/threads": ["post"],
    "/channels/{channel_id}/thread-members/{user_id}": ["put", "delete"],
    "/channels/{channel_id}": ["patch"],
    # Seek roles: a member takes or drops a game's opt-in role with a button.
    "/guilds/{guild_id}/members/{user_id}/roles/{role_id}": ["put", "delete"],
}


def refs(node, out):
    if isinstance(node, dict):
        r = node.get("$ref")
        if isinstance(r, str):
            out.add(r)
        for v in node.values():
            refs(v, out)
    elif isinstance(node, list):
        for v in node:
            refs(v, out)


def main():
    spec = json.load(open(sys.argv[1]))
    paths = {}
    for path, methods in OPERATIONS.items():
        item = spec["paths"][path]
        kept = {m: item[m] for m in methods if m in item}
        if "parameters" in item:
            kept["parameters"] = item["parameters"]
        paths[path] = kept
    components = {}
    todo = set()
    refs(paths, todo)
    done = set()
    while todo:
        r = todo.pop()
        if r in done:
            continue
        done.add(r)
        _, _, group, name = r.split("/", 3)
        node = spec["components"][group][name]
        components.setdefault(group, {})[name] = node
        found = set()
        refs(node, found)
        todo |= found - done
    out = {
        "openapi": spec["openapi"],
        "info": {
            "title": spec["info"].get("title"),
            "version": spec["info"].get("version"),
            "x-extracted": "subset for hexcord's end-to-end test; see tests/fake_discord/extract_spec.py",
        },
        "paths": paths,
        "components": {g: dict(sorted(v.items())) for g, v in sorted(components.items())},
    }
    json.dump(out, sys.stdout, indent=1, sort_keys=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
