"""Seed 004's Supabase calls, in supabase-py's form (the same protocol supabase-js speaks), against `hale serve`.

The app's client is `createClient(url, publishableKey, { accessToken })`: the publishable key as `apikey`, the
person's Hale token as the bearer. Accounts are made as an operator makes them (`hale accounts create`), and their
data through Hale's own routes; the reads go through the official client only."""

import datetime
import json
import os
import subprocess
import urllib.request

import pytest
from postgrest.exceptions import APIError
from supabase import ClientOptions, create_client

URL = os.environ["HALE_URL"]
KEY = os.environ["HALE_SUPABASE_PUBLISHABLE_KEYS"].split(",")[0]


def account(email):
    made = subprocess.run([os.environ["HALE_BINARY"], "accounts", "create", "--email", email],
                          check=True, capture_output=True, text=True).stdout
    created = json.loads(made)
    return created["accountId"], created["token"]


def call(method, path, token, body):
    request = urllib.request.Request(URL + path, method=method, data=json.dumps(body).encode(), headers={
        "Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def sample(identifier, kind, unit, value):
    start = datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0) - datetime.timedelta(hours=3)
    return {"id": identifier, "type": kind, "value": value, "unit": unit,
            "startDate": start.isoformat().replace("+00:00", "Z"),
            "endDate": (start + datetime.timedelta(minutes=30)).isoformat().replace("+00:00", "Z")}


def client(token):
    return create_client(URL, KEY, options=ClientOptions(headers={"Authorization": f"Bearer {token}"}))


@pytest.fixture(scope="module")
def people():
    """Two people, each with a completed sync, a sync refused for consent, and a HealthKit connection."""
    made = {}
    for name in ("ana", "bo"):
        account_id, token = account(f"{name}@example.com")
        assert call("POST", "/api/v1/health/connections", token,
                    {"provider": "healthkit", "permissions": ["steps", "activeMinutes"]}) == 201
        assert call("POST", "/api/v1/health/sync", token,
                    {"provider": "healthkit", "samples": [sample(f"{name}-1", "steps", "count", 900)]}) == 200
        assert call("POST", "/api/v1/health/sync", token,
                    {"provider": "healthkit", "samples": [sample(f"{name}-2", "calories", "kcal", 9)]}) == 403
        made[name] = (account_id, token)
    return made


def test_the_seeds_failed_logs_query(people):
    ana_id, token = people["ana"]
    history = (client(token).table("health_sync_logs").select("*").eq("status", "failed")
               .order("started_at", desc=True).limit(5).execute())
    assert [row["status"] for row in history.data] == ["failed"]
    assert history.data[0]["user_id"] == ana_id
    assert "No health permissions" in history.data[0]["error_message"]


def test_every_row_is_the_signed_in_persons(people):
    ana_id, token = people["ana"]
    bo_id, _ = people["bo"]
    everything = client(token).table("health_sync_logs").select("user_id").execute()
    assert {row["user_id"] for row in everything.data} == {ana_id}
    theirs = client(token).table("health_sync_logs").select("*").eq("user_id", bo_id).execute()
    assert theirs.data == []


def test_count_range_in_and_is(people):
    _, token = people["ana"]
    counted = (client(token).table("health_sync_logs").select("id,status", count="exact")
               .in_("status", ["failed", "completed"]).order("started_at", desc=False, nullsfirst=False)
               .range(0, 0).execute())
    assert counted.count == 2
    assert len(counted.data) == 1 and set(counted.data[0]) == {"id", "status"}
    unfinished = client(token).table("health_sync_logs").select("*").is_("completed_at", "null").execute()
    assert unfinished.data == []


def test_the_connection_as_the_app_wrote_it(people):
    _, token = people["ana"]
    rows = client(token).table("health_connections").select("*").eq("is_active", True).execute().data
    assert len(rows) == 1
    assert rows[0]["provider"] == "healthkit"
    assert rows[0]["permissions_granted"] == ["steps", "activeMinutes"]


def test_postgrests_own_errors(people):
    _, token = people["ana"]
    with pytest.raises(APIError) as unknown_table:
        client(token).table("profiles").select("*").execute()
    assert unknown_table.value.code == "PGRST205"
    with pytest.raises(APIError) as unknown_column:
        client(token).table("health_sync_logs").select("*").eq("nope", "x").execute()
    assert unknown_column.value.code == "42703"
    with pytest.raises(APIError) as unsupported:
        client(token).table("health_sync_logs").select("*").like("status", "fail%").execute()
    assert unsupported.value.code == "PGRST100"


def test_the_key_and_the_token_are_both_required(people):
    _, token = people["ana"]
    wrong = create_client(URL, "sb_publishable_wrong",
                          options=ClientOptions(headers={"Authorization": f"Bearer {token}"}))
    with pytest.raises(APIError) as refused:
        wrong.table("health_sync_logs").select("*").execute()
    assert refused.value.message == "Invalid API key"
    anonymous = create_client(URL, KEY)
    with pytest.raises(APIError):
        anonymous.table("health_sync_logs").select("*").execute()


def test_connect_and_disconnect_as_the_hooks_do():
    account_id, token = account("cy@example.com")
    supabase = client(token)
    connected = (supabase.table("health_connections")
                 .upsert({"user_id": account_id, "provider": "healthkit",
                          "permissions_granted": ["steps", "activeMinutes", "calories"], "is_active": True,
                          "connected_at": datetime.datetime.now(datetime.timezone.utc).isoformat()},
                         on_conflict="user_id,provider")
                 .execute())
    assert connected.data[0]["permissions_granted"] == ["steps", "activeMinutes", "calories"]
    assert call("POST", "/api/v1/health/sync", token,
                {"provider": "healthkit", "samples": [sample("cy-1", "steps", "count", 500)]}) == 200

    disconnected = (supabase.table("health_connections")
                    .update({"is_active": False,
                             "disconnected_at": datetime.datetime.now(datetime.timezone.utc).isoformat()})
                    .eq("provider", "healthkit").execute())
    assert disconnected.data[0]["is_active"] is False
    assert call("POST", "/api/v1/health/sync", token,
                {"provider": "healthkit", "samples": [sample("cy-2", "steps", "count", 500)]}) == 409


def test_a_row_naming_another_account_is_refused_by_row_level_security(people):
    _, token = people["ana"]
    bo_id, _ = people["bo"]
    with pytest.raises(APIError) as refused:
        client(token).table("health_connections").upsert(
            {"user_id": bo_id, "provider": "googlefit", "permissions_granted": ["steps"]},
            on_conflict="user_id,provider").execute()
    assert refused.value.code == "42501"


def test_get_challenges_for_health_sync(people):
    _, token = people["ana"]
    today = datetime.date.today()
    assert call("POST", "/api/v1/challenges", token, {
        "name": "This month's steps", "type": "steps", "goal": 100000,
        "startDate": today.isoformat(), "endDate": (today + datetime.timedelta(days=7)).isoformat()}) == 201
    challenges = client(token).rpc("get_challenges_for_health_sync").execute().data
    assert [c["challenge_type"] for c in challenges] == ["steps"]
    assert challenges[0]["start_date"] <= today.isoformat() <= challenges[0]["end_date"]


def seed_hash(user_id, sample):
    """The seed's generateActivityHash: SHA-256 of userId:sampleId:type:value:startDate:endDate."""
    import hashlib
    text = f"{user_id}:{sample['id']}:{sample['type']}:{sample['value']}:{sample['startDate']}:{sample['endDate']}"
    return hashlib.sha256(text.encode()).hexdigest()


def test_activities_are_stored_once_and_move_the_challenge():
    account_id, token = account("dee@example.com")
    assert call("POST", "/api/v1/health/consent", token, {"platform": "apple", "permissions": ["steps"]}) == 200
    today = datetime.date.today()
    assert call("POST", "/api/v1/challenges", token, {
        "name": "Steps this week", "type": "steps", "goal": 5000,
        "startDate": (today - datetime.timedelta(days=1)).isoformat(),
        "endDate": (today + datetime.timedelta(days=6)).isoformat()}) == 201
    supabase = client(token)
    challenge = supabase.rpc("get_challenges_for_health_sync").execute().data[0]
    samples = [sample(f"dee-{n}", "steps", "count", 700) for n in range(3)]
    rows = [{"user_id": account_id, "activity_type": s["type"], "value": s["value"], "recorded_at": s["startDate"],
             "source": "healthkit", "source_external_id": seed_hash(account_id, s),
             "challenge_id": challenge["challenge_id"]} for s in samples]
    for _ in range(2):  # a second sync of the same samples changes nothing
        (supabase.table("activity_logs")
         .upsert(rows, on_conflict="user_id,source,source_external_id", ignore_duplicates=True).execute())
    logged = supabase.rpc("log_health_activity", {
        "p_activity_type": "steps", "p_value": 900, "p_recorded_at": samples[0]["startDate"],
        "p_source": "healthkit", "p_source_external_id": "single-event-1",
        "p_challenge_id": challenge["challenge_id"]}).execute().data
    assert logged["value"] == 900 and logged["source_external_id"] == "single-event-1"
    stored = supabase.table("activity_logs").select("source_external_id", count="exact").execute()
    assert stored.count == 4
    progress = supabase.rpc("get_challenges_for_health_sync").execute().data[0]["current_progress"]
    assert progress == 3 * 700 + 900
